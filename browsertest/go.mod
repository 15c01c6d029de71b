module github.com/fiatramp/fiatramp-go/browsertest

go 1.23.0

replace github.com/fiatramp/fiatramp-go => ../

require (
	github.com/chromedp/chromedp v0.13.6
	github.com/fiatramp/fiatramp-go v0.1.0
	github.com/shopspring/decimal v1.6.0
)

require (
	github.com/chromedp/cdproto v0.0.0-20250403032234-65de8f5d025b // indirect
	github.com/chromedp/sysutil v1.1.0 // indirect
	github.com/go-json-experiment/json v0.0.0-20250211171154-1ae217ad3535 // indirect
	github.com/gobwas/httphead v0.1.0 // indirect
	github.com/gobwas/pool v0.2.1 // indirect
	github.com/gobwas/ws v1.4.0 // indirect
	github.com/google/uuid v1.6.0 // indirect
	golang.org/x/sys v0.29.0 // indirect
)
