// The screens KeywayUI draws are KeywayPresentation's: an app that imports KeywayUI names them
// without importing that module too.
@_exported import KeywayPresentation
