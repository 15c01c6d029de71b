package main

import (
	"context"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
)

// capture runs run with the environment empty and returns what it printed.
func capture(t *testing.T) string {
	t.Helper()
	t.Setenv(fiatramp.EnvAPIKey, "")
	r, w, err := os.Pipe()
	require.NoError(t, err)
	stdout := os.Stdout
	os.Stdout = w
	defer func() { os.Stdout = stdout }()
	out := make(chan string)
	go func() {
		b, _ := io.ReadAll(r)
		out <- string(b)
	}()

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err = run(ctx)
	os.Stdout = stdout
	require.NoError(t, w.Close())
	text := <-out
	require.NoError(t, err, text)
	return text
}

// TestStory runs the quickstart against the embedded sandbox and checks
// the transcript's key lines: each status reached, each webhook received,
// and the payout's amounts equal to the quotation's.
func TestStory(t *testing.T) {
	text := capture(t)
	const id = `[0-9a-f-]{36}`
	for _, line := range []string{
		`   registered http://127\.0\.0\.1:\d+/webhooks`,
		`   customer (` + id + `): UNVERIFIED`,
		`   KYC: PROCESSING`,
		`   webhook: CUSTOMER ` + id + ` VERIFIED \(signature verified\)`,
		`   bank account ` + id + `: bank_account PROCESSING`,
		`   webhook: BANK ` + id + ` VERIFIED \(signature verified\)`,
		`   payout ` + id + `: PROCESSING, 100 USDT -> [0-9.]+ INR`,
		`   amounts equal the quotation's`,
		`   refused: fiatramp: HTTP 400: .* \(ErrQuotationAlreadyLinked\)`,
		`   order EXO-QS-0001 -> transfer 770011223344`,
		`   webhook: PAYOUT ` + id + ` SUCCESS, utr \d{12} \(signature verified\)`,
		`   payout ` + id + `: SUCCESS, utr \d{12}, transfer 770011223344`,
		`   1 payout\(s\)`,
	} {
		require.Regexp(t, `(?m)^`+line+`$`, text)
	}

	// The webhook is about the customer created, and the bank webhook about
	// the account added.
	customer := regexp.MustCompile(`(?m)^   customer (` + id + `): `).FindStringSubmatch(text)[1]
	require.Contains(t, text, "webhook: CUSTOMER "+customer+" VERIFIED")
	bank := regexp.MustCompile(`(?m)^   bank account (` + id + `): `).FindStringSubmatch(text)[1]
	require.Contains(t, text, "webhook: BANK "+bank+" VERIFIED")

	// The payout, its webhook, its fetch and its history line are one
	// payout, with the quotation's amounts and one UTR throughout.
	quote := regexp.MustCompile(`(?m)^   quotation ` + id + `: (100 USDT -> ([0-9.]+) INR) at `).FindStringSubmatch(text)
	require.NotNil(t, quote, text)
	created := regexp.MustCompile(`(?m)^   payout (` + id + `): PROCESSING, (.*)$`).FindStringSubmatch(text)
	require.Equal(t, quote[1], created[2])
	payout := created[1]
	utr := regexp.MustCompile(`(?m)^   webhook: PAYOUT ` + payout + ` SUCCESS, utr (\d{12}) `).FindStringSubmatch(text)
	require.NotNil(t, utr, text)
	require.Contains(t, text, "   payout "+payout+": SUCCESS, utr "+utr[1]+", transfer 770011223344\n")
	require.Contains(t, text, "   "+payout+" SUCCESS "+quote[1]+", ref quickstart-001, utr "+utr[1]+"\n")
	// The refused second create paid nothing: the history holds one payout.
	require.NotContains(t, text, "quickstart-002 ")

	// The payout used its receiving amount of the day's limit, and linked
	// its quotation.
	used := regexp.MustCompile(`(?m)^   payout limit available ([0-9.]+) INR \(was ([0-9.]+)\)$`).FindStringSubmatch(text)
	require.NotNil(t, used, text)
	after, before := decimal.RequireFromString(used[1]), decimal.RequireFromString(used[2])
	require.True(t, before.Sub(after).Equal(decimal.RequireFromString(quote[2])), "limit %s -> %s for %s INR", before, after, quote[2])
	require.Regexp(t, `(?m)^   quotation `+id+`: LINKED$`, text)
	require.True(t, strings.HasSuffix(strings.TrimSpace(text), "serves this sandbox to programs in any language."), text)
}
