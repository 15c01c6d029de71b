package fiatramp

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSignKnownAnswer(t *testing.T) {
	// Expected values computed with python3:
	// base64.b64encode(hmac.new(secret, f"{key}|{ts}|{body}".encode(), hashlib.sha256).digest())
	tests := []struct {
		key, secret string
		ts          int64
		body, want  string
	}{
		{"fr_live_9f8e7d6c", "sk_5a4b3c2d1e0f", 1741419084, `{"asset":"usdt","fiat":"inr","sending_amount":"1500.75"}`, "vbrUmLZNLBUVVDDUx0pqla3AXoifLmu6e+GK4BaqN84="},
		{"key", strings.Repeat("x", 100), -5, `[1,"\u00e9"]`, "VrEwbctSL/Tm4FIVU6Dsy7rXzrABZc9Yl+mGLaZj300="},
		{"", "", 0, "", "gkCzpWM7vQ2jJOCE1tO4TKyicXItbWEdN9nYdKpUJoE="},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, Sign(tc.key, tc.secret, tc.ts, []byte(tc.body)))
	}
}

func TestSignGETBody(t *testing.T) {
	const want = "mkioiKcPdXFwy6gtInGilRS46GhuDOHL49SQJXNny00=" // python3, body "{}"
	require.Equal(t, want, Sign("fr_live_9f8e7d6c", "sk_5a4b3c2d1e0f", 1741419084, []byte("{}")))
	body, err := CanonicalizeJSON([]byte(" { } "))
	require.NoError(t, err)
	require.Equal(t, want, Sign("fr_live_9f8e7d6c", "sk_5a4b3c2d1e0f", 1741419084, body))
}

// TestSignMatchesCryptoHMAC checks the hand-rolled HMAC against crypto/hmac
// around the key-length boundaries (a key longer than the SHA-256 block is
// hashed first).
func TestSignMatchesCryptoHMAC(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for _, keyLen := range []int{0, 1, 31, 32, 33, 63, 64, 65, 100, 128, 1000} {
		for range 5 {
			secret := make([]byte, keyLen)
			for i := range secret {
				secret[i] = byte(r.Uint32())
			}
			body := make([]byte, r.IntN(300))
			for i := range body {
				body[i] = byte(r.Uint32())
			}
			ts := r.Int64() - math.MaxInt64/2
			mac := hmac.New(sha256.New, secret)
			fmt.Fprintf(mac, "%s|%d|%s", "api-key", ts, body)
			want := base64.StdEncoding.EncodeToString(mac.Sum(nil))
			require.Equal(t, want, Sign("api-key", string(secret), ts, body), "key length %d", keyLen)
		}
	}
}

// benchBody is a typical payin-quotation body as a caller would hand it
// over: keys not sorted, amount as a string.
var benchBody = []byte(`{"sending_amount":"1500.75","asset":"usdt","fiat":"inr",` +
	`"risk_parameters":{"suspicious_activity_report":false,"ip_address":"203.0.113.42",` +
	`"law_enforcement_agency_report":false,"device_id":"3f6c2a9e-8b1d-4c7e-9a05-d2e4b7f10c33"},` +
	`"customer_id":"5b0f8a2c-1d3e-4f6a-9b7c-8e2d1f0a3b4c","bank_id":"a1b2c3d4-e5f6-4789-abcd-ef0123456789",` +
	`"payment_method":"UPI"}`)

const (
	benchKey    = "fr_live_9f8e7d6c5b4a"
	benchSecret = "sk_live_5a4b3c2d1e0f9a8b7c6d5e4f"
	benchTS     = int64(1741419084)
)

// naiveCanonicalSign is the obvious way to do it: decode into any, encode
// with sorted map keys and without HTML escaping, escape non-ASCII, then
// crypto/hmac. It is only a baseline (its number formatting is Go's, not
// Python's).
func naiveCanonicalSign(body []byte) (string, error) {
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return "", err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	encoded := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	var out bytes.Buffer
	for _, r := range string(encoded) {
		switch {
		case r == 0x7f:
			out.WriteString(`\u007f`)
		case r < utf8.RuneSelf:
			out.WriteByte(byte(r))
		case r >= 0x10000:
			hi, lo := utf16.EncodeRune(r)
			fmt.Fprintf(&out, `\u%04x\u%04x`, hi, lo)
		default:
			fmt.Fprintf(&out, `\u%04x`, r)
		}
	}
	mac := hmac.New(sha256.New, []byte(benchSecret))
	mac.Write([]byte(benchKey + "|" + strconv.FormatInt(benchTS, 10) + "|"))
	mac.Write(out.Bytes())
	return base64.StdEncoding.EncodeToString(mac.Sum(nil)), nil
}

func fastCanonicalSign(body []byte) (string, error) {
	canon, err := canonicalizeExact(body)
	if err != nil {
		return "", err
	}
	return Sign(benchKey, benchSecret, benchTS, canon), nil
}

func TestBenchmarkApproachesAgree(t *testing.T) {
	fast, err := fastCanonicalSign(benchBody)
	if err != nil {
		t.Fatal(err)
	}
	naive, err := naiveCanonicalSign(benchBody)
	if err != nil {
		t.Fatal(err)
	}
	if fast != naive {
		t.Fatalf("fast %s, naive %s", fast, naive)
	}
}

// BenchmarkCanonicalizeAndSign measures the request path: canonicalize a
// payin-quotation body, then sign it.
func BenchmarkCanonicalizeAndSign(b *testing.B) {
	b.Run("fast", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(benchBody)))
		for i := 0; i < b.N; i++ {
			if _, err := fastCanonicalSign(benchBody); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("naive", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(benchBody)))
		for i := 0; i < b.N; i++ {
			if _, err := naiveCanonicalSign(benchBody); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkSign(b *testing.B) {
	canon, err := CanonicalizeJSON(benchBody)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(canon)))
	for i := 0; i < b.N; i++ {
		Sign(benchKey, benchSecret, benchTS, canon)
	}
}

// TestSignConcurrent signs in parallel with secrets on both sides
// of the HMAC block size and keys on both sides of the pooled prefix's
// cap: the pooled state (pad, prefix holding a long secret) must never
// leak from one signature into another.
func TestSignConcurrent(t *testing.T) {
	type job struct {
		key, secret string
		ts          int64
		body        []byte
		want        string
	}
	r := rand.New(rand.NewPCG(5, 8))
	var jobs []job
	for _, keyLen := range []int{1, 64, maxPooledBuffer + 10} {
		for _, secretLen := range []int{1, 63, 64, 65, 200, 5000} {
			j := job{key: strings.Repeat("k", keyLen), ts: r.Int64N(1 << 40), body: []byte(fmt.Sprintf(`{"n":%d}`, r.IntN(1e9)))}
			s := make([]byte, secretLen)
			for i := range s {
				s[i] = byte(r.Uint32())
			}
			j.secret = string(s)
			mac := hmac.New(sha256.New, s)
			fmt.Fprintf(mac, "%s|%d|%s", j.key, j.ts, j.body)
			j.want = base64.StdEncoding.EncodeToString(mac.Sum(nil))
			jobs = append(jobs, j)
		}
	}
	var wg sync.WaitGroup
	var bad atomic.Int32
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range 40 * len(jobs) {
				j := jobs[(n*5+w)%len(jobs)]
				if Sign(j.key, j.secret, j.ts, j.body) != j.want {
					bad.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	require.Zero(t, bad.Load())
}

// sigName reports whether an identifier names a signature or MAC: its lower
// case contains "sig" (sig, signature, sigHeader, X-SIGNATURE) or "mac"
// (mac, hmac, expectedMAC). This is deliberately broad; a false positive
// costs a rename or an explicit exception below, a false negative a timing
// leak.
func sigName(name string) bool {
	n := strings.ToLower(name)
	return strings.Contains(n, "sig") || strings.Contains(n, "mac")
}

// sigLike reports whether e evaluates to something signature-like: an
// identifier or field with such a name (sig, r.sig, sig.Value, sigs[i]), a
// conversion or call over one (string(sig), Sign(...), hex.EncodeToString(mac)),
// or a call reading a header named like one (r.Header.Get("X-SIGNATURE")).
// len(...) and cap(...) are not: comparing lengths reveals nothing secret.
func sigLike(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident:
		return sigName(e.Name)
	case *ast.SelectorExpr:
		return sigName(e.Sel.Name) || sigLike(e.X)
	case *ast.ParenExpr:
		return sigLike(e.X)
	case *ast.StarExpr:
		return sigLike(e.X)
	case *ast.IndexExpr:
		return sigLike(e.X)
	case *ast.SliceExpr:
		return sigLike(e.X)
	case *ast.BasicLit:
		return e.Kind == token.STRING && sigName(e.Value)
	case *ast.CallExpr:
		if id, ok := e.Fun.(*ast.Ident); ok && (id.Name == "len" || id.Name == "cap") {
			return false
		}
		if sigLike(e.Fun) {
			return true
		}
		for _, a := range e.Args {
			if sigLike(a) {
				return true
			}
		}
	}
	return false
}

// harmlessOperand is what a signature may be compared with by == or !=:
// the empty string or nil (is it present at all?).
func harmlessOperand(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.BasicLit:
		return e.Kind == token.STRING && (e.Value == `""` || e.Value == "``")
	case *ast.Ident:
		return e.Name == "nil"
	case *ast.ParenExpr:
		return harmlessOperand(e.X)
	}
	return false
}

// verifierName reports whether a function's name says it checks a
// signature or MAC (verifySig, checkSignature, validMAC, sigEqual): inside
// one, any == or != between two values is suspect, whatever the operands
// are called.
func verifierName(name string) bool {
	n := strings.ToLower(name)
	if !sigName(n) {
		return false
	}
	for _, verb := range []string{"verify", "check", "valid", "equal", "compare", "match"} {
		if strings.Contains(n, verb) {
			return true
		}
	}
	return false
}

// constantOperand is an operand that cannot be a secret: a literal, nil,
// true, false, or a length.
func constantOperand(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.BasicLit:
		return true
	case *ast.Ident:
		return e.Name == "nil" || e.Name == "true" || e.Name == "false"
	case *ast.ParenExpr:
		return constantOperand(e.X)
	case *ast.CallExpr:
		id, ok := e.Fun.(*ast.Ident)
		return ok && (id.Name == "len" || id.Name == "cap")
	}
	return false
}

// variableTimeEqual are functions that compare their arguments in time
// that depends on where they first differ.
var variableTimeEqual = map[string]bool{
	"bytes.Equal": true, "bytes.Compare": true, "bytes.EqualFold": true,
	"strings.Compare": true, "strings.EqualFold": true, "reflect.DeepEqual": true,
	"slices.Equal": true,
}

// timingUnsafeComparisons parses one Go source file and returns a
// description of every comparison of a signature that is not constant-time:
// == or != (and switch cases) between a signature-like operand and anything
// but "" or nil, and bytes.Equal & co. over a signature-like argument.
// Signatures must be compared with hmac.Equal or subtle.ConstantTimeCompare,
// whose time does not depend on how many leading bytes match; a variable-
// time compare lets an attacker forge a signature byte by byte.
//
// It is a syntactic check, so it errs on the side of flagging (see sigName);
// it cannot follow a signature through a renamed variable (x := sig;
// x == want), which review has to catch.
func timingUnsafeComparisons(fset *token.FileSet, f *ast.File) []string {
	var found []string
	report := func(n ast.Node, what string) {
		found = append(found, fset.Position(n.Pos()).String()+": "+what)
	}
	var inVerifier []ast.Node // the bodies of functions named like verifiers
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			if n.Body != nil && verifierName(n.Name.Name) {
				inVerifier = append(inVerifier, n.Body)
			}
		case *ast.BinaryExpr:
			if n.Op != token.EQL && n.Op != token.NEQ {
				return true
			}
			switch {
			case (sigLike(n.X) && !harmlessOperand(n.Y)) || (sigLike(n.Y) && !harmlessOperand(n.X)):
				report(n, n.Op.String()+" on a signature")
			case !constantOperand(n.X) && !constantOperand(n.Y) && within(inVerifier, n):
				report(n, n.Op.String()+" in a signature verifier")
			}
		case *ast.SwitchStmt:
			if n.Tag == nil || !sigLike(n.Tag) {
				return true
			}
			for _, stmt := range n.Body.List {
				for _, e := range stmt.(*ast.CaseClause).List {
					if !harmlessOperand(e) {
						report(e, "switch case on a signature")
					}
				}
			}
		case *ast.CallExpr:
			sel, ok := n.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			pkg, ok := sel.X.(*ast.Ident)
			if !ok || !variableTimeEqual[pkg.Name+"."+sel.Sel.Name] {
				return true
			}
			for _, a := range n.Args {
				if sigLike(a) {
					report(n, pkg.Name+"."+sel.Sel.Name+" on a signature")
					break
				}
			}
		}
		return true
	})
	return found
}

// within reports whether n lies inside one of the nodes.
func within(nodes []ast.Node, n ast.Node) bool {
	for _, o := range nodes {
		if o.Pos() <= n.Pos() && n.End() <= o.End() {
			return true
		}
	}
	return false
}

func TestSignatureComparisonsAreConstantTime(t *testing.T) {
	t.Run("checker", func(t *testing.T) {
		const src = `package p

import ("bytes"; "crypto/hmac"; "net/http")

func f(r *http.Request, sig, want, other string, mac, expected []byte, s struct{ Signature string }) bool {
	if sig == want { return true }                           // flagged
	if want != sig { return true }                           // flagged
	if string(mac) == string(expected) { return true }       // flagged
	if s.Signature == other { return true }                  // flagged
	if r.Header.Get("X-SIGNATURE") == want { return true }   // flagged
	if bytes.Equal(mac, expected) { return true }            // flagged
	switch sig { case want: return true }                    // flagged
	if sig == "" || mac == nil || len(sig) != 44 { return false } // fine
	if other == want { return true }                         // fine: no signature
	return hmac.Equal(mac, expected)                         // fine
}

func verifySig(got, want string) bool {
	if len(got) == 0 || got == "" { return false }           // fine
	return got == want                                       // flagged
}
`
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "p.go", src, parser.SkipObjectResolution)
		require.NoError(t, err)
		found := timingUnsafeComparisons(fset, f)
		var lines []int
		for _, s := range found {
			// "p.go:LINE:COL: what"
			n, err := strconv.Atoi(strings.Split(s, ":")[1])
			require.NoError(t, err)
			lines = append(lines, n)
		}
		assert.Equal(t, []int{6, 7, 8, 9, 10, 11, 12, 20}, lines, "%q", found)
	})

	t.Run("repository", func(t *testing.T) {
		fset := token.NewFileSet()
		var found []string
		files := 0
		err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			name := d.Name()
			if d.IsDir() {
				if path != "." && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			files++
			found = append(found, timingUnsafeComparisons(fset, f)...)
			return nil
		})
		require.NoError(t, err)
		assert.Greater(t, files, 10, "the walk found the sources")
		assert.Empty(t, found, "compare signatures with hmac.Equal or subtle.ConstantTimeCompare")

		// The sandbox verifies signatures; it must do so in constant time:
		// each of its files that reads X-SIGNATURE compares with hmac.Equal
		// or subtle.ConstantTimeCompare (whichever file that is).
		sources, err := filepath.Glob(filepath.Join("sandbox", "*.go"))
		require.NoError(t, err)
		readers := 0
		for _, name := range sources {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			src, err := os.ReadFile(name)
			require.NoError(t, err)
			// By any spelling of the header's name: net/http files it under
			// its canonical key, X-Signature.
			if !bytes.Contains(bytes.ToLower(src), []byte(`header.get("x-signature")`)) {
				continue
			}
			readers++
			assert.True(t, bytes.Contains(src, []byte("hmac.Equal(")) || bytes.Contains(src, []byte("subtle.ConstantTimeCompare(")),
				"%s checks X-SIGNATURE with hmac.Equal or subtle.ConstantTimeCompare", name)
		}
		assert.Positive(t, readers, "a sandbox file reads X-SIGNATURE")
	})
}

// BenchmarkSignSize canonicalizes and signs a body of about the given size:
// objects with unsorted keys, numbers and non-ASCII text.
func BenchmarkSignSize(b *testing.B) {
	item := `{"z":"last","amount":"1500.75","é":"non-ascii ☃","n":12345,"nested":{"b":[1,2,3],"a":true},"id":"5b0f8a2c-1d3e-4f6a-9b7c-8e2d1f0a3b4c"}`
	for _, s := range benchSizes {
		var body strings.Builder
		body.WriteString(`{"items":[`)
		for i := 0; body.Len() < s.n-len(item)-2; i++ {
			if i > 0 {
				body.WriteByte(',')
			}
			body.WriteString(item)
		}
		body.WriteString(`]}`)
		raw := []byte(body.String())
		b.Run(s.name, func(b *testing.B) {
			b.SetBytes(int64(len(raw)))
			b.ReportAllocs()
			for range b.N {
				canonical, err := CanonicalizeJSON(raw)
				if err != nil {
					b.Fatal(err)
				}
				_ = Sign(benchKey, benchSecret, benchTS, canonical)
			}
		})
	}
}

// benchSizes are the body sizes of BenchmarkSignSize.
var benchSizes = []struct {
	name string
	n    int
}{{"1KB", 1 << 10}, {"10KB", 10 << 10}, {"100KB", 100 << 10}, {"1MB", 1 << 20}}
