package main

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"io"
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

// documentation returns the text of every document of the repository,
// by path: README.md, CONTRIBUTING.md and every docs/*.md (a glob, so that
// a new document is walked without a change here).
func documentation(t *testing.T) map[string][]byte {
	t.Helper()
	root := filepath.Join("..", "..")
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	require.NoError(t, err)
	require.NotEmpty(t, docs, "docs/*.md found nothing: the walk would check too little")
	texts := map[string][]byte{}
	for _, path := range append([]string{filepath.Join(root, "README.md"), filepath.Join(root, "CONTRIBUTING.md")}, docs...) {
		text, err := os.ReadFile(path)
		require.NoError(t, err)
		texts[path] = text
	}
	return texts
}

// TestDocPythonStory runs the documents' Python recipe for other
// languages against the command, so the documented signing recipe and
// paths keep working.
func TestDocPythonStory(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed: the documents' Python recipe is not run")
	}
	var blocks [][][]byte
	for _, text := range documentation(t) {
		for _, b := range regexp.MustCompile("(?s)```python\n(.*?)```").FindAllSubmatch(text, -1) {
			if !bytes.Contains(b[1], []byte("class SandboxControlTest")) { // that one: TestPythonControlPlane
				blocks = append(blocks, b)
			}
		}
	}
	require.Len(t, blocks, 1, "the documents have one Python signing recipe")

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

// TestDocShellStory runs the command-line walk-through of the documents
// with the built binary, so its commands, flags and jq paths keep working.
func TestDocShellStory(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not installed: the documents' shell story is not run")
	}
	if _, err := exec.LookPath("jq"); err != nil {
		t.Skip("jq not installed: the documents' shell story is not run")
	}
	var stories [][]byte
	for _, text := range documentation(t) {
		for _, m := range regexp.MustCompile("(?s)Against a local sandbox:\n\n```\n(.*?)```").FindAllSubmatch(text, -1) {
			stories = append(stories, m[1])
		}
	}
	require.Len(t, stories, 1, "the documents have one shell story")
	story := string(stories[0])
	start := "fiatramp sandbox -startup-file sandbox.json &"
	require.Contains(t, story, start+"    # written whole, once serving\nuntil [ -s sandbox.json ]; do sleep 0.1; done\n")
	// A free port and the sandbox stopped at the end; the documented wait
	// for the startup file stays as shown (the context bounds it).
	story = strings.Replace(story, start, "fiatramp sandbox -addr 127.0.0.1:0 -startup-file sandbox.json & trap 'kill $!' EXIT;", 1)

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
	assert.Contains(t, text, "AADHAAR\nPASSPORT\n", "kyc get-configuration through jq")
	assert.Regexp(t, `(?m)^payment_method +UPI$`, text, "payin quotation table")
	assert.Regexp(t, `(?m)^client_reference_id +order-1$`, text, "payout table")
	assert.Contains(t, text, `"payout_status": "SUCCESS"`, "the simulation through call")
	assert.Regexp(t, `(?m)^exchange_transfer_id +770011223344$`, text, "transfer link table")
	assert.Contains(t, text, "\nLINKED\n", "the quotation linked by the payout")
	assert.Contains(t, text, "order-1\tSUCCESS\norder-2\tPROCESSING\n", "the history through jq, in creation order")
	assert.Contains(t, text, "123456789012 SUCCESS\n", "the payin history through jq")
}

// TestDocEDDStory runs the documents' configuration, rates, limits and
// EDD commands against a sandbox started as the shell story starts it:
// the demo's EDD customer owes an EDD, so both saves succeed as shown.
func TestDocEDDStory(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not installed: the documents' EDD commands are not run")
	}
	if _, err := exec.LookPath("jq"); err != nil {
		t.Skip("jq not installed: the documents' EDD commands are not run")
	}
	var blocks [][]byte
	for _, text := range documentation(t) {
		for _, m := range regexp.MustCompile("(?s)for payouts\nand for payins alike:\n\n```\n(.*?)```").FindAllSubmatch(text, -1) {
			blocks = append(blocks, m[1])
		}
	}
	require.Len(t, blocks, 1, "the documents have one block of EDD commands")
	story := "fiatramp sandbox -addr 127.0.0.1:0 -startup-file sandbox.json & trap 'kill $!' EXIT\n" +
		"until [ -s sandbox.json ]; do sleep 0.1; done\n" +
		"export FIATRAMP_BASE_URL=$(jq -r .base_url sandbox.json)\n" +
		"export FIATRAMP_API_KEY=$(jq -r .demo.organization.api_key sandbox.json)\n" +
		"export FIATRAMP_API_SECRET=$(jq -r .demo.organization.api_secret sandbox.json)\n" +
		"CUSTOMER=$(jq -r .demo.customer.id sandbox.json)\n" + string(blocks[0])

	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bash, "-euo", "pipefail", "-c", story)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + filepath.Dir(binary) + string(os.PathListSeparator) + os.Getenv("PATH"), "HOME=" + dir}
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "the EDD commands failed:\n%s", out)
	text := string(out)
	assert.Contains(t, text, "\ntrue\n", "the EDD customer's payout limits: is_edd_required")
	assert.Equal(t, 2, strings.Count(text, `"status": "PROCESSING"`), "both EDD saves:\n%s", text)
}

// TestPythonControlPlane runs the documents' Python test of the control
// plane (examples/python/test_sandbox_control.py, shown whole in one of
// them) against the built binary: it starts `fiatramp sandbox -control`
// itself and drives the clock, faults, fixtures, state and deliveries.
func TestPythonControlPlane(t *testing.T) {
	script := filepath.Join("..", "..", "examples", "python", "test_sandbox_control.py")
	src, err := os.ReadFile(script)
	require.NoError(t, err)
	shown := 0
	for _, text := range documentation(t) {
		if bytes.Contains(text, []byte("```python\n"+string(src)+"```")) {
			shown++
		}
	}
	require.Equal(t, 1, shown, "one document shows the script whole")

	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed: the documents' Python control-plane test is not run")
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

// TestDocCommandLines keeps the command lines the documents show
// runnable: every `fiatramp` (or `go run ./cmd/fiatramp`) invocation in a
// shell block names a command that exists, and every flag it passes is a
// flag of that command.
func TestDocCommandLines(t *testing.T) {
	var problems []string
	lines := 0
	for path, text := range documentation(t) {
		for _, inv := range docInvocations(text) {
			lines++
			if problem := checkInvocation(inv); problem != "" {
				problems = append(problems, path+": "+problem)
			}
		}
	}
	require.Greater(t, lines, 10, "too few command lines found to have checked the documents")
	assert.Empty(t, problems)
}

// TestDocCommandLinesFindsMistakes shows that TestDocCommandLines can
// fail: an unknown command, an unknown command of a group and an unknown
// flag are each found, while substitutions, quotes and output lines are
// not taken for arguments.
func TestDocCommandLinesFindsMistakes(t *testing.T) {
	text := "```\n" +
		"$ fiatramp payouts get $(jq -r .id payout.json) -o table -x \\\n    --yes\n" +
		"fiatramp payouts cancel ID\n" +
		"go run ./cmd/fiatramp sandbox -no-demo > sandbox.json\n" +
		"fiatramp nothing\n" +
		"fiatramp: HTTP 400: an output line\n" +
		"fiatramp sign -now $((TS + 3600)) -compare \"$SIG -q\" '-q'\n" +
		"```\n\n```go\nfiatramp nothing -at-all\n```\n"
	var problems []string
	for _, inv := range docInvocations([]byte(text)) {
		if p := checkInvocation(inv); p != "" {
			problems = append(problems, p)
		}
	}
	assert.Equal(t, []string{
		`fiatramp payouts get: no flag -x`,
		`fiatramp payouts cancel: no such command`,
		`fiatramp nothing: no such command`,
	}, problems)
}

// docInvocations returns the arguments of each `fiatramp` invocation in
// the shell blocks of text (fenced blocks with no language, sh, shell or
// console), continuation lines joined, with quoted strings and $(...)
// substitutions replaced by a placeholder and the rest of a pipeline,
// redirection or comment left out.
func docInvocations(text []byte) [][]string {
	block := regexp.MustCompile("(?ms)^[ \t]*```([a-z]*)\n(.*?)^[ \t]*```")
	quoted := regexp.MustCompile(`'[^']*'|"[^"]*"`)
	subst := regexp.MustCompile(`\$?\([^()]*\)`)
	var invocations [][]string
	for _, b := range block.FindAllSubmatch(text, -1) {
		switch string(b[1]) {
		case "", "sh", "shell", "console":
		default:
			continue
		}
		body := strings.ReplaceAll(string(b[2]), "\\\n", " ")
		for _, line := range strings.Split(body, "\n") {
			line = quoted.ReplaceAllString(line, "ARG")
			for subst.MatchString(line) {
				line = subst.ReplaceAllString(line, "ARG")
			}
			fields := strings.Fields(line)
			for i, f := range fields {
				if f != "fiatramp" && !strings.HasSuffix(f, "/cmd/fiatramp") {
					continue
				}
				var args []string
				for _, a := range fields[i+1:] {
					if strings.ContainsAny(a[:1], "|&;<>#") {
						break
					}
					args = append(args, a)
				}
				invocations = append(invocations, args)
				break
			}
		}
	}
	return invocations
}

// checkInvocation asks the command's own help whether args name a command
// (a group's command when the first word is a group) and whether each
// flag among them is one of its flags; it returns what is wrong, or "".
func checkInvocation(args []string) string {
	helpOf := func(words []string) (string, error) {
		var out bytes.Buffer
		err := run(context.Background(), append([]string{"help"}, words...), &out, io.Discard)
		return out.String(), err
	}
	if len(args) == 0 {
		return ""
	}
	words := args[:1]
	help, err := helpOf(words)
	if err == nil && strings.HasPrefix(help, "Commands of fiatramp ") && len(args) > 1 {
		words = args[:2]
		help, err = helpOf(words)
	}
	name := "fiatramp " + strings.Join(words, " ")
	if err != nil {
		return name + ": no such command"
	}
	flagName := regexp.MustCompile(`^--?([a-z][a-z0-9-]*)(=.*)?$`)
	for _, a := range args[len(words):] {
		m := flagName.FindStringSubmatch(a)
		if m == nil {
			continue
		}
		if !regexp.MustCompile(`(?m)^  -` + regexp.QuoteMeta(m[1]) + `( |$)`).MatchString(help) {
			return name + ": no flag -" + m[1]
		}
	}
	return ""
}

// TestDocSignExample runs the documents' `fiatramp sign` example with a
// signature made the way its text says (over the body as sent, not its
// canonical form) and checks that the command prints the lines shown, in
// order: "..." stands for lines left out, "(...)" for the rest of a line.
func TestDocSignExample(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not installed: the documents' sign example is not run")
	}
	example := regexp.MustCompile("(?ms)^```\n\\$ (echo '([^']*)' \\| fiatramp sign -timestamp ([0-9]+) [^\n]*)\n(.*?)^```")
	var found [][]string
	for _, text := range documentation(t) {
		for _, m := range example.FindAllSubmatch(text, -1) {
			found = append(found, []string{string(m[1]), string(m[2]), string(m[3]), string(m[4])})
		}
	}
	require.Len(t, found, 1, "the documents have one `fiatramp sign` example")
	command, body, timestamp, shown := found[0][0], found[0][1], found[0][2], found[0][3]

	const key, secret = "docs_key", "docs_secret_0123456789"
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(key + "|" + timestamp + "|" + body)) // the body as sent: the mistake the example finds
	theirs := base64.StdEncoding.EncodeToString(mac.Sum(nil))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bash, "-c", command)
	cmd.Env = []string{
		"PATH=" + filepath.Dir(binary) + string(os.PathListSeparator) + os.Getenv("PATH"),
		"FIATRAMP_API_KEY=" + key, "FIATRAMP_API_SECRET=" + secret, "THEIR_SIGNATURE=" + theirs,
	}
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, "the example's verdict is a mismatch (exit status 1): %s", out)
	assert.Equal(t, 1, exit.ExitCode(), "%s", out)

	printed := strings.Split(string(out), "\n")
	for _, line := range strings.Split(strings.TrimRight(shown, "\n"), "\n") {
		if line == "..." {
			continue
		}
		pattern := regexp.MustCompile("^" + strings.ReplaceAll(regexp.QuoteMeta(line), `\(\.\.\.\)`, `\(.*\)`) + "$")
		for len(printed) > 0 && !pattern.MatchString(printed[0]) {
			printed = printed[1:]
		}
		if !assert.NotEmpty(t, printed, "the command did not print, in order, the line %q:\n%s", line, out) {
			return
		}
		printed = printed[1:]
	}
}
