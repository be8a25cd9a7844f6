export * from "./AutomationPage.js"
export * from "./Page.js"
export * from "./PageTools.js"
