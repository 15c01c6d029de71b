// Command fiatramp serves the fiatramp sandbox (the whole service in
// memory, with its authentication, rules and messages, for tests and local
// development in any language), signs requests and explains refused
// signatures, and calls the service from a shell.
//
// Usage:
//
//	fiatramp sandbox [-addr 127.0.0.1:4010] [-fixtures FILE] [-no-demo]
//	                 [-page-size N] [-seed N] [-public-url URL]
//	                 [-remittance-path PATH] [-quotation-validity 10m]
//	                 [-read-header-timeout 10s] [-read-timeout 30s]
//	                 [-write-timeout 60s] [-idle-timeout 2m] [-max-conns 4096]
//	                 [-control] [-startup-file FILE] [-bank-verification-delay 0s]
//	fiatramp payouts get PAYOUT_ID
//	fiatramp payouts get-balance
//	fiatramp payouts create -quotation ID -customer ID [-reference REF] [--yes]
//	fiatramp payouts reconcile -reference REF -customer ID [-quotation ID] [-from DAY -to DAY]
//	fiatramp payouts get-configuration | payins get-configuration
//	fiatramp payouts get-rate -asset A -fiat F [-network N] (payins get-rate alike)
//	fiatramp payouts get-limits CUSTOMER_ID | payins get-limits CUSTOMER_ID
//	fiatramp payouts save-edd -customer ID -source S [-bank-statement URL]... [-itr URL]... -declare
//	fiatramp payouts create-quotation -customer ID -bank ID -amount N [-asset A] [-fiat F] [-network N]
//	fiatramp payouts get-quotation QUOTATION_ID
//	fiatramp payouts link-transfer -exchange-order ID -transfer ID
//	fiatramp payouts list [-status S] [-customer ID] [-from YYYY-MM-DD -to YYYY-MM-DD]
//	fiatramp payins create-quotation -customer ID -bank ID -method IMPS|UPI -amount N
//	fiatramp payins get-quotation QUOTATION_ID
//	fiatramp payins initiate -quotation ID -customer ID -utr UTR [-reference REF] [--yes]
//	fiatramp payins get PAYIN_ID
//	fiatramp payins list [-status S] [-customer ID] [-from YYYY-MM-DD -to YYYY-MM-DD]
//	fiatramp payins link-transfer -payin ID -transfer ID
//	fiatramp payins simulate-status PAYIN_ID -status S
//	fiatramp payins save-edd (the payout EDD's flags) [-purpose P] [-purpose-doc URL]... [-p2p]
//	fiatramp customers bank-accounts CUSTOMER_ID
//	fiatramp customers add-bank-account -customer ID (-account N -ifsc IFSC -name NAME | -vpa VPA)
//	fiatramp customers create -name N -email E -phone P -country C [-reference REF]
//	fiatramp customers get CUSTOMER_ID
//	fiatramp customers list [-from DD-MM-YYYY] [-to DD-MM-YYYY]
//	fiatramp kyc get-configuration CUSTOMER_ID
//	fiatramp kyc add-data [-check-rules] -data @FILE
//	fiatramp kyc update-tax-info -customer ID -tax-number N
//	fiatramp kyc update-document-info -data @FILE
//	fiatramp kyc update-selfie -customer ID -selfie-url URL
//	fiatramp kyc update-additional-info -customer ID -info KEY=VALUE... [-check-rules]
//	fiatramp kyc reset [--yes] CUSTOMER_ID
//	fiatramp kyc generate-link -redirect URL CUSTOMER_ID
//	fiatramp organization set-webhook-url URL
//	fiatramp widget initialize -amount N -network CODE -method M -wallet ADDRESS
//	fiatramp sign [-method M] [-timestamp N] [-now N] [-compare SIG | -request FILE] [BODY_FILE]
//	fiatramp call METHOD PATH [BODY | @FILE | -]
//	fiatramp webhook verify [-key K] [-secret-file F] [-now N] [DELIVERY_FILE]
//	fiatramp webhook send [-type T] [-event E] [-id ID] [-metadata JSON] URL
//	fiatramp help [COMMAND]
//
// The commands that call the service take their credentials from
// FIATRAMP_API_KEY, FIATRAMP_API_SECRET and FIATRAMP_BASE_URL, print the
// response data as JSON exactly as the service sent it (-o table for a
// short table), and exit 0 when done, 1 when the service refused (the error
// with its status, message and sentinel name on stderr) or could not be
// reached, 2 for bad input (nothing sent) and 3 when the outcome of a
// create is unknown (with the "fiatramp payouts reconcile" command that
// settles it). A payout create, and a call with any method but GET
// or HEAD, asks for confirmation on a terminal and otherwise needs --yes.
// On a machine whose clock is off, -correct-clock stamps the requests by
// the service's clock (the Date header of its answers).
// "fiatramp sign" reads the secret from FIATRAMP_API_SECRET or
// -secret-file, never from a flag value, and never prints it.
//
// `fiatramp sandbox` serves until SIGINT or SIGTERM. On start it prints one
// JSON document to stdout (or, with -startup-file, writes it to that file
// once the port is bound, replacing the file whole, so that a start that
// fails, on a port already taken say, leaves the file as it was; the file
// is removed when the sandbox stops), holding the base URL, the demo
// organization (unless -no-demo) and the fixtures loaded from -fixtures,
// each with its generated ids, keys and secrets:
//
//	{
//	  "base_url": "http://127.0.0.1:4010",
//	  "demo": {
//	    "organization": {"id": "...", "api_key": "sbx_key_...", "api_secret": "sbx_secret_...", ...},
//	    "customer": {"id": "...", ...},
//	    "bank_account": {...}, "vpa": {...}, "pending_customer": {...},
//	    "remitter": {...}, "quotations": [{...}, {...}, {...}]
//	  },
//	  "fixtures": {"organizations": [...]}
//	}
//
// The sandbox clock runs with real time, so the demo's payout quotations
// expire ten minutes after start (the sandbox's default validity); for
// longer sessions pass -quotation-validity 24h, or give quotations a
// distant expires_at in a fixtures file.
//
// The server limits its connections so that slow, idle or numerous ones
// cannot hold it: a request's headers must arrive within
// -read-header-timeout and the whole request within -read-timeout (a body
// cut off is answered 408), the answer must be written within
// -write-timeout, a kept-alive connection is closed after -idle-timeout
// without a request, and at most -max-conns connections are open at once
// (at the cap a new one closes an idle or slow one; it waits only while
// every one is being answered). A head or body must also keep arriving at
// 500 bytes a second once it has taken 5 seconds. 0 turns a limit off.
//
// With -control it also serves the control plane under /_sandbox: the
// sandbox's clock, request and delivery faults, fixtures, reset and state
// (payouts, balances, customers' KYC status, webhook deliveries) as JSON
// over HTTP, for tests in any language; GET /_sandbox lists the operations.
// Every control request carries "Authorization: Bearer TOKEN" with the
// admin token from $FIATRAMP_SANDBOX_CONTROL_TOKEN, or a random one; the
// start document holds it as "control": {"url": ..., "token": ...}.
//
// The fixtures file is the JSON of sandbox.Fixtures: organizations with
// their customers (bank accounts with their payout quotations, wallets)
// and remitters, nested, so the file needs no cross-references. Give an
// organization api_key and api_secret in the file to have fixed
// credentials.
//
// # Signing a request
//
// Every request carries X-API-KEY, X-TIMESTAMP (Unix seconds, within 300
// seconds of the sandbox clock) and X-SIGNATURE: the standard Base64 of
// HMAC-SHA256, keyed by the API secret, of key + "|" + timestamp + "|" +
// body. A GET signs the string {}. A body must be sent exactly as signed,
// in canonical form: keys sorted at every level, no white space, non-ASCII
// escaped as lowercase \uXXXX, i.e. what Python prints with
// json.dumps(obj, sort_keys=True, separators=(",", ":")). From a shell:
//
//	fiatramp sandbox -startup-file sandbox.json &
//	sleep 1
//	BASE=$(jq -r .base_url sandbox.json)
//	KEY=$(jq -r .demo.organization.api_key sandbox.json)
//	SECRET=$(jq -r .demo.organization.api_secret sandbox.json)
//	CUSTOMER=$(jq -r .demo.customer.id sandbox.json)
//	sign() { printf '%s|%s|%s' "$KEY" "$1" "$2" | openssl dgst -sha256 -hmac "$SECRET" -binary | base64; }
//
//	TS=$(date +%s)
//	curl -H "X-API-KEY: $KEY" -H "X-TIMESTAMP: $TS" -H "X-SIGNATURE: $(sign "$TS" '{}')" \
//	    "$BASE/cms/api/v1/kyc/configuration/$CUSTOMER"
//
//	QUOTATION=$(jq -r '.demo.quotations[0].id' sandbox.json)
//	BODY=$(printf '{"client_reference_id":"order-1","customer_id":"%s","quotation_id":"%s"}' "$CUSTOMER" "$QUOTATION")
//	TS=$(date +%s)
//	curl -H "X-API-KEY: $KEY" -H "X-TIMESTAMP: $TS" -H "X-SIGNATURE: $(sign "$TS" "$BODY")" \
//	    -H 'Content-Type: application/json' --data-raw "$BODY" "$BASE/pos/api/v1/payout/initiate"
//
// In Python:
//
//	body = "{}" if payload is None else json.dumps(payload, sort_keys=True, separators=(",", ":"))
//	ts = str(int(time.time()))
//	mac = hmac.new(secret.encode(), f"{key}|{ts}|{body}".encode(), hashlib.sha256)
//	headers = {"X-API-KEY": key, "X-TIMESTAMP": ts, "X-SIGNATURE": base64.b64encode(mac.digest()).decode()}
//	# send body (not payload) as the request body of a POST or PATCH
//
// A failed authentication is answered 401 with an err_code starting AUTH_
// that says what was wrong (missing header, unknown key, timestamp out of
// the window, body not canonical, bad signature).
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(exitCode(err, os.Stderr))
}

// usageError is a command line the command does not understand; its usage
// has already been printed.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// usageIntro opens the overview of the commands, usageOutro ends it; the
// commands between are listed from the command table (overview).
const usageIntro = `fiatramp serves the fiatramp sandbox, signs requests and calls the
service from a shell. Its commands that call the service are named as the
library's methods: "fiatramp payouts get-balance" calls Payouts.GetBalance.

Usage:
`

const usageOutro = `
The commands that call the service read FIATRAMP_API_KEY, FIATRAMP_API_SECRET
and FIATRAMP_BASE_URL, print the response data as JSON (amounts exactly as
sent; -o table for a short table) and exit with status 0 when done, 1 when
the service refused (the error, its status, message and sentinel name on
stderr) or could not be reached, 2 for bad input (nothing was sent) and 3
when the outcome is unknown (a create may have taken effect: reconcile).

Example, against a local sandbox:

	fiatramp sandbox -startup-file sandbox.json &
	sleep 1
	export FIATRAMP_BASE_URL=$(jq -r .base_url sandbox.json)
	export FIATRAMP_API_KEY=$(jq -r .demo.organization.api_key sandbox.json)
	export FIATRAMP_API_SECRET=$(jq -r .demo.organization.api_secret sandbox.json)
	fiatramp payouts get-balance

On start, "fiatramp sandbox" prints one JSON document to stdout (or writes
it to -startup-file FILE once serving) with the base URL and the demo
organization's and the fixtures' ids, keys and secrets. Run "go doc github.com/fiatramp/fiatramp-go/cmd/fiatramp" for how
to sign requests from any language.
`

// run is the command: args are the arguments after the program name. It
// returns when ctx is done (nil) or at once with an error.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, overview())
		return &usageError{"no command"}
	}
	switch cmd, rest := args[0], args[1:]; cmd {
	case "sandbox":
		return runSandbox(ctx, rest, stdout, stderr)
	case "help", "-h", "-help", "--help":
		return help(rest, stdout, stderr)
	default:
		if c, more := findCommand(args); c != nil {
			return runCommand(ctx, c, streams{in: os.Stdin, out: stdout, err: stderr, inTTY: stdinIsTerminal()}, more)
		}
		if isGroup(cmd) {
			msg := fmt.Sprintf("%s: which command?", cmd)
			if len(rest) > 0 {
				msg = fmt.Sprintf("unknown command %q", cmd+" "+rest[0])
			}
			fmt.Fprintf(stderr, "fiatramp: %s\n\n%s", msg, groupUsage(cmd))
			return &usageError{msg}
		}
		fmt.Fprintf(stderr, "fiatramp: unknown command %q\n\n%s", cmd, overview())
		return &usageError{fmt.Sprintf("unknown command %q", cmd)}
	}
}
