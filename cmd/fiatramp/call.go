package main

// fiatramp call METHOD PATH [BODY]

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	fiatramp "github.com/fiatramp/fiatramp-go"
)

// maxBodyInput caps a request body read from a file or standard input.
const maxBodyInput = 1 << 20

func callCommand() *command {
	c := &command{
		name:    "call",
		args:    "METHOD PATH [BODY]",
		summary: "any operation, signed (raw JSON in and out)",
		about: `Call any operation of the service, signed like every other call: METHOD
and PATH from the base address (a query is allowed and not signed), and
for a POST, PATCH or PUT a JSON BODY: the JSON itself, @FILE, or - for
standard input. The body is sent in canonical form (keys sorted, no white
space), which is also what is signed; a number with a fraction that would
not survive that (e.g. 12345678901234567.5) is refused: send amounts as
strings. Prints the response's data as JSON, or the whole envelope with
-envelope.

Anything but GET or HEAD may change something (create a payout), so it
asks for confirmation on a terminal, and without one needs --yes. A POST or
PATCH is never sent twice once it may have reached the service: an outcome
that cannot be known exits with status 3.`,
		example: `fiatramp call GET /cms/api/v1/kyc/configuration/$CUSTOMER
fiatramp call PATCH /pos/api/v1/payout/mock-payout-status '{"payout_id":"'$PAYOUT'","payout_status":"SUCCESS"}' --yes`,
	}
	var (
		cf       callFlags
		envelope bool
		yes      bool
	)
	c.setup = func(fs *flag.FlagSet) func(context.Context, streams, []string) error {
		fs.StringVar(&cf.output, "o", "json", "output `format`: json only (the response data, exact)")
		fs.DurationVar(&cf.timeout, "timeout", defaultTimeout, "give up on the call after this `duration`, retries included")
		fs.BoolVar(&envelope, "envelope", false, "print the whole response body (status, message, data), not only data")
		fs.BoolVar(&yes, "yes", false, "send a method other than GET or HEAD without asking")
		cf.defineClock(fs)
		return func(ctx context.Context, s streams, args []string) error {
			if err := wantArgs(s, c, args, 2, 3); err != nil {
				return err
			}
			if cf.output != "json" {
				return misuse(s, c, "-o %q: call prints JSON only", cf.output)
			}
			method, path := strings.ToUpper(args[0]), args[1]
			if !strings.HasPrefix(path, "/") {
				return misuse(s, c, "PATH %q: want a path from the base address, such as /pos/api/v1/payout/balance", path)
			}
			var body json.RawMessage
			if len(args) == 3 {
				if method == http.MethodGet || method == http.MethodHead {
					return misuse(s, c, "a %s carries no body (it signs {})", method)
				}
				raw, err := readBody(s, args[2])
				if err != nil {
					return misuse(s, c, "BODY: %v", err)
				}
				if !json.Valid(raw) {
					return misuse(s, c, "BODY is not one JSON document")
				}
				body = raw
			}
			ask := !yes && method != http.MethodGet && method != http.MethodHead
			question := func(base string) string { return fmt.Sprintf("Send %s %s to %s?", method, printable(path), base) }
			return cf.confirmAndCall(ctx, s, c, ask, question, nil, func(ctx context.Context, cl *fiatramp.Client) (any, error) {
				var (
					resp fiatramp.Response
					data json.RawMessage
					out  any
				)
				if !envelope {
					out = &data
				}
				var b any // nil, not a nil json.RawMessage: no body at all
				if body != nil {
					b = body
				}
				if err := cl.Do(ctx, method, path, b, out, fiatramp.CaptureResponse(&resp)); err != nil {
					return nil, err
				}
				if envelope {
					return json.RawMessage(resp.Body), nil
				}
				return data, nil
			})
		}
	}
	return c
}

// readBody reads a BODY argument: @FILE, - for standard input, or the text
// itself.
func readBody(s streams, arg string) ([]byte, error) {
	var r io.Reader
	switch {
	case arg == "-":
		r = s.in
	case strings.HasPrefix(arg, "@"):
		fh, err := os.Open(arg[1:])
		if err != nil {
			return nil, err
		}
		defer fh.Close()
		r = fh
	default:
		return []byte(arg), nil
	}
	raw, err := io.ReadAll(io.LimitReader(r, maxBodyInput+1))
	if err != nil {
		return nil, err
	}
	if len(raw) > maxBodyInput {
		return nil, fmt.Errorf("longer than %d bytes", maxBodyInput)
	}
	return raw, nil
}
