// Command modproxy writes a file-based Go module proxy holding every
// module of the repository at one version, made from the working tree, so
// that CI can build a consumer of each module with no replace directive,
// as a user who runs "go get" on a tag would.
//
//	go run . -repo ../.. -version v0.1.0 -out /tmp/proxy
//
// It finds the modules by their go.mod files (the files git lists, tracked
// or untracked but not ignored, so a new module is included without
// naming it anywhere), writes for each the layout GOPROXY=file://DIR
// reads ($module/@v/list, $version.info, .mod and .zip) and prints one
// line per module: its path and its directory. This tool's own module is
// left out. The zip follows the module zip rules the go command checks
// when it extracts one: every file under "$module@$version/", no file of a
// nested module or of a vendor directory, only regular files, valid file
// names, no two names equal but for case, go.mod and LICENSE at most
// 16 MiB, the whole at most 500 MiB uncompressed. It uses the standard
// library only, so that it runs without downloading anything.
package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

func main() {
	repo := flag.String("repo", ".", "the repository's root `directory`")
	version := flag.String("version", "v0.1.0", "the `version` every module gets")
	out := flag.String("out", "", "the proxy's `directory` (created)")
	flag.Parse()
	if *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: modproxy -repo DIR -version vX.Y.Z -out DIR")
		os.Exit(2)
	}
	if err := run(*repo, *version, *out, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "modproxy:", err)
		os.Exit(1)
	}
}

// module is one module of the repository.
type module struct {
	path string   // module path, from its go.mod
	dir  string   // directory, relative to the repository's root, "." for the root
	mod  []byte   // its go.mod
	zip  []string // its files, relative to the repository's root
}

func run(repo, version, out string, stdout io.Writer) error {
	files, err := listFiles(repo)
	if err != nil {
		return err
	}
	mods, err := findModules(repo, files)
	if err != nil {
		return err
	}
	info, err := json.Marshal(struct {
		Version string
		Time    time.Time
	}{version, time.Now().UTC().Truncate(time.Second)})
	if err != nil {
		return err
	}
	for _, m := range mods {
		dir, err := escapePath(m.path)
		if err != nil {
			return err
		}
		dir = filepath.Join(out, filepath.FromSlash(dir), "@v")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		var z bytes.Buffer
		if err := writeZip(&z, repo, m, version); err != nil {
			return fmt.Errorf("module %s: %w", m.path, err)
		}
		for name, data := range map[string][]byte{
			"list":            []byte(version + "\n"),
			version + ".info": info,
			version + ".mod":  m.mod,
			version + ".zip":  z.Bytes(),
		} {
			if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
				return err
			}
		}
		fmt.Fprintf(stdout, "%s %s\n", m.path, m.dir)
	}
	return nil
}

// listFiles lists the repository's files as git would commit them: the
// tracked ones still present and the untracked ones not ignored, with
// slash-separated paths.
func listFiles(repo string) ([]string, error) {
	cmd := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	cmd.Dir = repo
	cmd.Stderr = os.Stderr
	b, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git ls-files: %w", err)
	}
	var files []string
	seen := map[string]bool{}
	for _, f := range strings.Split(string(b), "\x00") {
		if f == "" || seen[f] {
			continue
		}
		seen[f] = true
		fi, err := os.Lstat(filepath.Join(repo, filepath.FromSlash(f)))
		if errors.Is(err, os.ErrNotExist) {
			continue // deleted in the working tree
		}
		if err != nil {
			return nil, err
		}
		if fi.Mode().IsRegular() {
			files = append(files, f)
		}
	}
	sort.Strings(files)
	return files, nil
}

// selfDir is this tool's module, which is not published.
const selfDir = ".ci/modproxy"

// findModules returns the repository's modules, each with its files: a
// file belongs to the module of the nearest directory above it holding a
// go.mod, and a vendor directory's files to none.
func findModules(repo string, files []string) ([]*module, error) {
	byDir := map[string]*module{}
	var mods []*module
	for _, f := range files {
		if path.Base(f) != "go.mod" {
			continue
		}
		dir := path.Dir(f)
		b, err := os.ReadFile(filepath.Join(repo, filepath.FromSlash(f)))
		if err != nil {
			return nil, err
		}
		p := modulePath(b)
		if p == "" {
			return nil, fmt.Errorf("%s: no module line", f)
		}
		m := &module{path: p, dir: dir, mod: b}
		byDir[dir] = m
		if dir != selfDir && !isTestdata(dir) {
			mods = append(mods, m)
		}
	}
	for _, f := range files {
		if inVendor(f) {
			continue
		}
		for dir := path.Dir(f); ; dir = path.Dir(dir) {
			if m := byDir[dir]; m != nil {
				m.zip = append(m.zip, f)
				break
			}
			if dir == "." {
				break
			}
		}
	}
	return mods, nil
}

// isTestdata reports whether dir is inside a testdata directory, where a
// go.mod is a test's input, not a module.
func isTestdata(dir string) bool {
	for _, e := range strings.Split(dir, "/") {
		if e == "testdata" {
			return true
		}
	}
	return false
}

// inVendor reports whether f is in a vendor directory, which a module zip
// leaves out.
func inVendor(f string) bool {
	for _, e := range strings.Split(path.Dir(f), "/") {
		if e == "vendor" {
			return true
		}
	}
	return false
}

// modulePath is the path of go.mod's module line.
func modulePath(gomod []byte) string {
	for _, line := range strings.Split(string(gomod), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "module"); ok && rest != "" && (rest[0] == ' ' || rest[0] == '\t') {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}

// Limits of a module zip.
const (
	maxZipFile = 500 << 20 // the whole, uncompressed
	maxGoMod   = 16 << 20
	maxLicense = 16 << 20
)

// writeZip writes m's zip at version to w.
func writeZip(w io.Writer, repo string, m *module, version string) error {
	zw := zip.NewWriter(w)
	prefix := m.path + "@" + version + "/"
	folded := map[string]string{}
	var total int64
	for _, f := range m.zip {
		rel := f
		if m.dir != "." {
			rel = strings.TrimPrefix(f, m.dir+"/")
		}
		if err := checkFilePath(rel); err != nil {
			return err
		}
		if other, ok := folded[strings.ToLower(rel)]; ok {
			return fmt.Errorf("%s and %s differ only in case", other, rel)
		}
		folded[strings.ToLower(rel)] = rel
		b, err := os.ReadFile(filepath.Join(repo, filepath.FromSlash(f)))
		if err != nil {
			return err
		}
		if (rel == "go.mod" && len(b) > maxGoMod) || (rel == "LICENSE" && len(b) > maxLicense) {
			return fmt.Errorf("%s is larger than %d bytes", rel, maxGoMod)
		}
		if total += int64(len(b)); total > maxZipFile {
			return fmt.Errorf("larger than %d bytes uncompressed", maxZipFile)
		}
		fw, err := zw.Create(prefix + rel)
		if err != nil {
			return err
		}
		if _, err := fw.Write(b); err != nil {
			return err
		}
	}
	return zw.Close()
}

// checkFilePath refuses a file name the go command refuses in a module
// zip: an empty, "." or ".." element, a character outside letters,
// digits and -.+_~!#$%&()=@[]^{},' ', an element ending in a dot, or a
// name Windows reserves.
func checkFilePath(rel string) error {
	for _, e := range strings.Split(rel, "/") {
		if e == "" || e == "." || e == ".." || strings.HasSuffix(e, ".") {
			return fmt.Errorf("file %q: invalid path element %q", rel, e)
		}
		for _, r := range e {
			if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || strings.ContainsRune("-.+_~!#$%&()=@[]^{}, ", r)) {
				return fmt.Errorf("file %q: character %q not allowed", rel, r)
			}
		}
		short, _, _ := strings.Cut(e, ".")
		switch strings.ToUpper(short) {
		case "CON", "PRN", "AUX", "NUL", "COM1", "COM2", "COM3", "COM4", "COM5", "COM6", "COM7", "COM8", "COM9",
			"LPT1", "LPT2", "LPT3", "LPT4", "LPT5", "LPT6", "LPT7", "LPT8", "LPT9":
			return fmt.Errorf("file %q: %q is a reserved name", rel, e)
		}
	}
	return nil
}

// escapePath is a module path as the proxy protocol spells it in a URL
// and on disk: each upper-case letter as "!" and its lower case.
func escapePath(p string) (string, error) {
	var b strings.Builder
	for _, r := range p {
		switch {
		case r == '!':
			return "", fmt.Errorf("module path %q: '!' is not allowed", p)
		case 'A' <= r && r <= 'Z':
			b.WriteByte('!')
			b.WriteRune(r + ('a' - 'A'))
		default:
			b.WriteRune(r)
		}
	}
	return b.String(), nil
}
