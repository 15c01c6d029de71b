package main

import (
	"context"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestOnboarding runs the program and checks its transcript: each failure
// arrives as a CUSTOMER webhook with its reason, the matching update sends
// the KYC back for a decision, every customer ends VERIFIED, and the hosted
// KYC link serves the customer's page and takes the approval.
func TestOnboarding(t *testing.T) {
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

	const id = `[0-9a-f-]{36}`
	ids := regexp.MustCompile(`(?m)^   customer (`+id+`): UNVERIFIED$`).FindAllStringSubmatch(text, -1)
	require.Len(t, ids, 2, text)
	tax, doc := ids[0][1], ids[1][1]

	for _, c := range []struct{ id, reason, update string }{
		{tax, "TAX_VERIFICATION_FAILED", "update the tax number (KYC.UpdateTaxInfo)"},
		{doc, "DOCUMENT_VERIFICATION_FAILED", "send the document again (KYC.UpdateDocumentInfo)"},
	} {
		require.Regexp(t, `(?m)^   KYC: PROCESSING
\d+\. KYC simulation \(sandbox\): the check fails with `+c.reason+`
   webhook: CUSTOMER `+c.id+` FAILED, failure `+c.reason+` \(signature verified\)
   customer `+c.id+`: FAILED, failure `+c.reason+` \(recoverable by an update: true\)
\d+\. `+regexp.QuoteMeta(c.update)+`
   KYC: UNVERIFIED$`, text)
	}
	require.Regexp(t, `(?m)^\d+\. KYC simulation \(sandbox\): the check passes
   webhook: CUSTOMER `+tax+` VERIFIED \(signature verified\)
   customer `+tax+`: VERIFIED$`, text)

	// The document path ends on the hosted KYC page: served, offering the
	// decisions the simulation accepts after the update, and approved.
	require.Regexp(t, `(?m)^   link: http://127\.0\.0\.1:\d+/hosted/kyc/[0-9a-f]{64}
   GET: 200 OK, "KYC verification", KYC status on the page UNVERIFIED
   the page offers: approve; decline with [A-Z_]+( or [A-Z_]+)*$`, text)
	require.Regexp(t, `(?m)^   POST: 303 See Other, on to https://shop\.example/kyc-done
   webhook: CUSTOMER `+doc+` VERIFIED \(signature verified\)
   customer `+doc+`: VERIFIED$`, text)
	require.Equal(t, 2, strings.Count(text, "VERIFIED (signature verified)"), text)
}
