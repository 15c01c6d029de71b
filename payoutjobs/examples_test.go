package payoutjobs

import (
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The two-worker example runs: built, against a new database of the test
// server, it submits payouts, its two worker processes end them all, and
// it prints the counts.
func TestTwoWorkersExampleRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the example program")
	}
	dsn := newDatabase(t)
	bin := filepath.Join(t.TempDir(), "twoworkers")
	out, err := exec.Command("go", "build", "-o", bin, "./examples/twoworkers").CombinedOutput()
	require.NoError(t, err, "%s", out)
	out, err = exec.Command(bin, "-dsn", dsn, "-payouts", "6").CombinedOutput()
	require.NoError(t, err, "%s", out)
	t.Logf("%s", out)
	assert.Contains(t, string(out), "counts: submitted 0, running 0, unknown 0, awaiting 0, failed 0, final map[REFUNDED:1 SUCCESS:5], refused map[]")
}
