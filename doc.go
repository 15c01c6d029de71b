// Package fiatramp is the Go client of the fiatramp fiat payout and payin
// service: it pays fiat to a customer's bank account against a quotation that
// locks an exchange rate, quotes payins over IMPS and UPI, and manages
// customers' wallets, bank accounts and KYC.
//
// A Client holds one value per service of the API: Payouts, Payins,
// Customers, KYC, Organization and Widget. Operations lists the operations
// of every service, each with its method, HTTP call and retry safety; every
// call takes a context first and returns typed results from
// package types, whose money is decimal.Decimal and whose ids are uuid.UUID.
// Every request is signed (see Sign and CanonicalizeJSON): the exact
// canonical bytes that are signed are the bytes sent.
//
// Errors from the service are *APIError values; errors.Is matches them
// against one sentinel per documented condition (ErrQuotationExpired,
// ErrInsufficientBalance, ...), also when a test's fake built the
// *APIError from its fields (package fiatramptest has the service's
// refusals ready), and SentinelNames names them for a log or a metric.
// Bad input is refused before anything is sent with a *ValidationError
// that names the field.
//
// Calls are retried after connection errors, 408, 429 and 5xx (see
// RetryPolicy), each attempt signed afresh. Payout creates carry a
// client_reference_id so that a retry cannot pay twice; one that may have
// taken effect without the library learning it ends in an
// *OutcomeUnknownError (ErrOutcomeUnknown), to be reconciled, never taken
// for a failure. All calls of a Client share a retry budget
// (WithRetryBudget), so that an outage does not multiply the load;
// WithRateLimiter paces requests, and WithCallRetry and WithCallTimeout
// tune one call.
//
// WithObserver reports every call and attempt (operation, method, path
// template, status, duration, error class, retry delay, outcome) to an
// Observer, never a body, a header or a credential; the module
// github.com/fiatramp/fiatramp-go/otel turns them into OpenTelemetry spans
// and metrics.
package fiatramp
