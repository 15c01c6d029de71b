package main

import (
	"bytes"
	"context"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestRun runs the example and checks the story it tells: one event
// handled once though delivered twice, a forged delivery refused.
func TestRun(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var out bytes.Buffer
	require.NoError(t, run(ctx, &out))
	for _, want := range []string{
		`(?m)^4\. event received: PAYOUT [0-9a-f-]{36} SUCCESS, utr \d{12}$`,
		`(?m)^5\. the sandbox delivered it 2 times \(answers 200, 200\); the function ran 1 time\(s\)$`,
		`(?m)^6\. a forged delivery was refused: HTTP 401; the function ran 1 time\(s\)$`,
		`(?m)^7\. Payouts\.Wait \(the polling fallback\) agrees: SUCCESS$`,
	} {
		require.Regexp(t, regexp.MustCompile(want), out.String())
	}
}
