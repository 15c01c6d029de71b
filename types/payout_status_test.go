package types_test

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/types"
)

// statusFacts is what a status says, as its methods tell it.
type statusFacts[S ~string] struct {
	values                     []S
	next                       func(S) []S
	final, paid, mayPay, funds func(S) bool
}

func payoutFacts() statusFacts[types.PayoutStatus] {
	return statusFacts[types.PayoutStatus]{
		values: types.PayoutStatus("").Values(), next: types.PayoutStatus.Next,
		final: types.PayoutStatus.IsFinal, paid: types.PayoutStatus.IsPaid,
		mayPay: types.PayoutStatus.MayStillPay, funds: types.PayoutStatus.FundsReturned,
	}
}

// TestPayoutStatusTable: the moves, and what each status says about the
// money, written out once here against the methods.
func TestPayoutStatusTable(t *testing.T) {
	P, S, F, R, I, C := types.PayoutProcessing, types.PayoutSuccess, types.PayoutFailed, types.PayoutRefunded, types.PayoutInReview, types.PayoutCancelled
	for _, tc := range []struct {
		s                          types.PayoutStatus
		next                       []types.PayoutStatus
		final, paid, mayPay, funds bool
	}{
		{P, []types.PayoutStatus{S, F, R, I, C}, false, false, true, false},
		{I, []types.PayoutStatus{P, S, F, C}, false, false, true, false},
		{S, nil, true, true, false, false},
		{F, []types.PayoutStatus{R}, false, false, false, false},
		{R, nil, true, false, false, true},
		{C, nil, true, false, false, true},
		{"SETTLED", nil, false, false, true, false}, // unknown: still under way
		{"success", nil, false, false, true, false},
	} {
		assert.Equal(t, tc.next, tc.s.Next(), tc.s)
		assert.Equal(t, tc.final, tc.s.IsFinal(), tc.s)
		assert.Equal(t, tc.paid, tc.s.IsPaid(), tc.s)
		assert.Equal(t, tc.mayPay, tc.s.MayStillPay(), tc.s)
		assert.Equal(t, tc.funds, tc.s.FundsReturned(), tc.s)
		for _, to := range append(types.PayoutStatus("").Values(), "SETTLED") {
			assert.Equal(t, slices.Contains(tc.next, to), tc.s.CanMoveTo(to), "%s -> %s", tc.s, to)
		}
	}
	n := P.Next()
	n[0] = "CHANGED"
	assert.Equal(t, S, P.Next()[0], "Next returns a new slice")
}

// The facts hold together: a final status has no move and is reached;
// funds come back only where no fiat is paid; every status is reachable
// from PROCESSING.
func TestPayoutStatusFactsAgree(t *testing.T) {
	checkFactsAgree(t, payoutFacts(), types.PayoutProcessing)
}

func checkFactsAgree[S ~string](t *testing.T, f statusFacts[S], start S) {
	t.Helper()
	reached := map[S]bool{start: true}
	for queue := []S{start}; len(queue) > 0; queue = queue[1:] {
		for _, to := range f.next(queue[0]) {
			if !reached[to] {
				reached[to] = true
				queue = append(queue, to)
			}
		}
	}
	for _, s := range f.values {
		assert.True(t, reached[s], "%s is reachable", s)
		assert.Equal(t, len(f.next(s)) == 0, f.final(s), "%s: final exactly when no move leaves it", s)
		assert.False(t, f.paid(s) && f.funds(s), "%s: paid and funds back", s)
		assert.False(t, f.paid(s) && f.mayPay(s), "%s: paid and may still pay", s)
		assert.False(t, f.funds(s) && f.mayPay(s), "%s: funds back and may still pay", s)
		if f.paid(s) || f.funds(s) {
			for _, to := range f.next(s) {
				assert.False(t, f.mayPay(to), "%s -> %s: a decided outcome is undone", s, to)
			}
		}
	}
}

// statesDoc is docs/states.md.
func statesDoc(t *testing.T) string {
	t.Helper()
	raw, err := os.ReadFile("../docs/states.md")
	require.NoError(t, err)
	return string(raw)
}

// statesProblems compares the section of doc under heading with the
// table f: the Mermaid diagram's moves, its final statuses and its start,
// and the table's row of each status (final, paid, funds back). It
// returns what disagrees.
func statesProblems[S ~string](doc, heading string, f statusFacts[S], start S) []string {
	var problems []string
	_, section, ok := strings.Cut(doc, "\n## "+heading+"\n")
	if !ok {
		return []string{"no section " + heading}
	}
	section, _, _ = strings.Cut(section, "\n## ")
	m := regexp.MustCompile("(?s)```mermaid\nstateDiagram-v2\n(.*?)```").FindStringSubmatch(section)
	if m == nil {
		return []string{heading + ": no stateDiagram-v2 block"}
	}
	var drawn, want []string
	for _, line := range strings.Split(strings.TrimSpace(m[1]), "\n") {
		from, to, ok := strings.Cut(strings.TrimSpace(line), " --> ")
		if !ok {
			problems = append(problems, fmt.Sprintf("%s: not a move: %q", heading, line))
			continue
		}
		to, _, _ = strings.Cut(to, ":")
		drawn = append(drawn, from+" -> "+strings.TrimSpace(to))
	}
	want = append(want, "[*] -> "+string(start))
	for _, s := range f.values {
		for _, to := range f.next(s) {
			want = append(want, string(s)+" -> "+string(to))
		}
		if f.final(s) {
			want = append(want, string(s)+" -> [*]")
		}
	}
	slices.Sort(drawn)
	slices.Sort(want)
	if !slices.Equal(drawn, want) {
		problems = append(problems, fmt.Sprintf("%s: the diagram draws %q, the table holds %q", heading, drawn, want))
	}
	yesNo := map[bool]string{true: "yes", false: "no"}
	row := regexp.MustCompile("(?m)^\\| `([A-Z_]+)` \\| ([^|]+) \\| ([^|]+) \\| ([^|]+) \\|")
	rows := map[string][]string{}
	for _, r := range row.FindAllStringSubmatch(section, -1) {
		rows[r[1]] = []string{strings.TrimSpace(r[2]), strings.TrimSpace(r[3]), strings.TrimSpace(r[4])}
	}
	for _, s := range f.values {
		paid := "no"
		switch {
		case f.paid(s):
			paid = "yes"
		case f.mayPay(s):
			paid = "not yet"
		}
		wantRow := []string{yesNo[f.final(s)], paid, yesNo[f.funds(s)]}
		if got := rows[string(s)]; !slices.Equal(got, wantRow) {
			problems = append(problems, fmt.Sprintf("%s: row %s says %q, the methods %q", heading, s, got, wantRow))
		}
		delete(rows, string(s))
	}
	for s := range rows {
		problems = append(problems, fmt.Sprintf("%s: row %s is no status", heading, s))
	}
	return problems
}

// docs/states.md draws the payout table: its diagram's moves and its rows
// are the methods'.
func TestPayoutStatesDrawnInDocs(t *testing.T) {
	assert.Empty(t, statesProblems(statesDoc(t), "Payouts", payoutFacts(), types.PayoutProcessing))
}

// The comparison fails when the document drifts: a move added, a move
// taken out, a row that says the funds came back on FAILED.
func TestStatesProblemsFindsDrift(t *testing.T) {
	doc := statesDoc(t)
	for name, broken := range map[string]string{
		"move added":   strings.Replace(doc, "    FAILED --> REFUNDED\n", "    FAILED --> REFUNDED\n    SUCCESS --> REFUNDED\n", 1),
		"move removed": strings.Replace(doc, "    IN_REVIEW --> PROCESSING\n", "", 1),
		"row wrong":    strings.Replace(doc, "| `FAILED` | no | no | no |", "| `FAILED` | no | no | yes |", 1),
		"not final":    strings.Replace(doc, "    CANCELLED --> [*]\n", "", 1),
	} {
		require.NotEqual(t, doc, broken, name)
		assert.NotEmpty(t, statesProblems(broken, "Payouts", payoutFacts(), types.PayoutProcessing), name)
	}
}
