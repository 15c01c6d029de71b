package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

// TestReadmePythonStory runs the README's Python snippet, the recipe for
// other languages, against the command, so the documented signing recipe
// and paths keep working.
func TestReadmePythonStory(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed: the README's Python recipe is not run")
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	require.NoError(t, err)
	var blocks [][][]byte
	for _, b := range regexp.MustCompile("(?s)```python\n(.*?)```").FindAllSubmatch(readme, -1) {
		if !bytes.Contains(b[1], []byte("class SandboxControlTest")) { // that one: TestPythonControlPlane
			blocks = append(blocks, b)
		}
	}
	require.Len(t, blocks, 1, "README has one Python signing recipe")

	r := start(t)
	dir := t.TempDir()
	script, cfg := filepath.Join(dir, "story.py"), filepath.Join(dir, "sandbox.json")
	require.NoError(t, os.WriteFile(script, blocks[0][1], 0o600))
	require.NoError(t, os.WriteFile(cfg, r.raw, 0o600))

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, python, script, cfg).CombinedOutput()
	require.NoError(t, err, "python: %s", out)
	m := regexp.MustCompile(`^created ([0-9a-f-]{36}) PROCESSING\nfetched SUCCESS\n$`).FindStringSubmatch(string(out))
	require.NotNil(t, m, "python printed: %s", out)

	// The Go client sees what the script did.
	demo := r.doc.Demo
	c, err := fiatramp.New(demo.Organization.APIKey, demo.Organization.APISecret, fiatramp.WithBaseURL(r.doc.BaseURL))
	require.NoError(t, err)
	p, err := c.Payouts.Get(callCtx(t), uuid.MustParse(m[1]))
	require.NoError(t, err)
	assert.Equal(t, types.PayoutSuccess, p.Status)
	require.NotNil(t, p.ClientReferenceID)
	assert.Equal(t, "py-0001", *p.ClientReferenceID)
	assert.Equal(t, demo.Quotations[0].ID, p.QuotationID)
	require.NoError(t, r.stop(t))
}

// TestReadmeShellStory runs the README's command-line walk-through with
// the built binary, so its commands, flags and jq paths keep working.
func TestReadmeShellStory(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not installed: the README's shell story is not run")
	}
	if _, err := exec.LookPath("jq"); err != nil {
		t.Skip("jq not installed: the README's shell story is not run")
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	require.NoError(t, err)
	m := regexp.MustCompile("(?s)Against a local sandbox:\n\n```\n(.*?)```").FindSubmatch(readme)
	require.NotNil(t, m, "README has the shell story")
	story := string(m[1])
	require.Contains(t, story, "fiatramp sandbox > sandbox.json &\nsleep 1\n")
	// A free port, a wait for the document rather than a guess, and the
	// sandbox stopped at the end.
	story = strings.Replace(story, "fiatramp sandbox > sandbox.json &\nsleep 1\n",
		"fiatramp sandbox -addr 127.0.0.1:0 > sandbox.json &\ntrap 'kill $!' EXIT\n"+
			"for i in $(seq 100); do grep -q base_url sandbox.json 2>/dev/null && break; sleep 0.1; done\n", 1)

	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bash, "-euo", "pipefail", "-c", story)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + filepath.Dir(binary) + string(os.PathListSeparator) + os.Getenv("PATH"), "HOME=" + dir}
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "the story failed:\n%s", out)
	text := string(out)
	assert.Regexp(t, `(?m)^USDT +1000$`, text, "balance table")
	assert.Contains(t, text, "AADHAAR\nPASSPORT\n", "kyc config through jq")
	assert.Regexp(t, `(?m)^payment_method +UPI$`, text, "payin quotation table")
	assert.Regexp(t, `(?m)^client_reference_id +order-1$`, text, "payout table")
	assert.Contains(t, text, `"payout_status": "SUCCESS"`, "the simulation through call")
}

// TestPythonControlPlane runs the README's Python test of the control
// plane (examples/python/test_sandbox_control.py, shown whole in the
// README) against the built binary: it starts `fiatramp sandbox -control`
// itself and drives the clock, faults, fixtures, state and deliveries.
func TestPythonControlPlane(t *testing.T) {
	script := filepath.Join("..", "..", "examples", "python", "test_sandbox_control.py")
	src, err := os.ReadFile(script)
	require.NoError(t, err)
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	require.NoError(t, err)
	require.Contains(t, string(readme), "```python\n"+string(src)+"```", "README shows the script whole")

	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed: the README's Python control-plane test is not run")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, python, script)
	cmd.Env = append(os.Environ(), "FIATRAMP_BIN="+binary, "PYTHONWARNINGS=error::ResourceWarning")
	out, err := cmd.CombinedOutput()
	t.Logf("python3 %s:\n%s", script, out)
	require.NoError(t, err)
	assert.Regexp(t, `(?m)^Ran 6 tests in .*\n\nOK\n`, string(out))
	assert.NotContains(t, string(out), "skipped")
}
