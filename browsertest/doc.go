// Package browsertest clicks through the sandbox's hosted pages (the KYC
// link's page and the widget link's page) in a real headless Chromium,
// driven by chromedp. It is its own module, so that the root module does
// not depend on chromedp; its tests skip where no browser is installed,
// unless FIATRAMP_REQUIRE_BROWSER=1, and CI installs Chromium from
// Debian's packages and runs them.
package browsertest
