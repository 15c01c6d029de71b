package main

// The help: the overview of every command grouped by service, a group's
// commands, and a command's own help (synopsis, about, flags, example).

import (
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode"

	fiatramp "github.com/fiatramp/fiatramp-go"
)

// helpUsage is the help of "fiatramp help".
const helpUsage = `Usage: fiatramp help [COMMAND]

Print the overview of every command, or the help of one: its synopsis, what
it does, its flags and an example. COMMAND is the command's words
("payouts get", "sign") or a group of commands ("payouts"). "fiatramp
COMMAND -h" prints the same help on stderr.

Example:

	fiatramp help payouts create
`

// help prints the help of the command named by args, or the overview.
func help(args []string, stdout, stderr io.Writer) error {
	switch {
	case len(args) == 0:
		fmt.Fprint(stdout, overview())
		return nil
	case len(args) == 1 && isHelpWord(args[0]):
		fmt.Fprint(stdout, helpUsage)
		return nil
	case args[0] == "sandbox" && len(args) == 1:
		fs, _ := sandboxFlags(stdout)
		fs.Usage()
		return nil
	}
	if c, rest := findCommand(args); c != nil && len(rest) == 0 {
		fs, _ := c.flags(stdout)
		fs.Usage()
		return nil
	}
	if len(args) == 1 && isGroup(args[0]) {
		fmt.Fprint(stdout, groupUsage(args[0]))
		return nil
	}
	fmt.Fprintf(stderr, "fiatramp help: unknown command %q\n\n%s", strings.Join(args, " "), overview())
	return &usageError{fmt.Sprintf("unknown command %q", strings.Join(args, " "))}
}

// isHelpWord reports whether word asks for help: "help", "-h", "-help" or
// "--help".
func isHelpWord(word string) bool {
	switch word {
	case "help", "-h", "-help", "--help":
		return true
	}
	return false
}

// isGroup reports whether word names a group of commands ("payouts").
func isGroup(word string) bool {
	for _, c := range commands() {
		if w := strings.Fields(c.name); len(w) > 1 && w[0] == word {
			return true
		}
	}
	return false
}

// groupUsage lists the commands of group.
func groupUsage(group string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Commands of fiatramp %s:\n\n", group)
	var lines []helpLine
	for _, c := range commands() {
		if strings.Fields(c.name)[0] == group {
			lines = append(lines, c.helpLine())
		}
	}
	writeHelpLines(&b, lines)
	fmt.Fprintf(&b, "\nRun \"fiatramp help %s COMMAND\" for a command's flags and an example.\n", group)
	return b.String()
}

// helpLine is one line of a list of commands: the command with what
// follows it, and its summary.
type helpLine struct{ usage, summary string }

// helpLine is c's line in a list of commands: [flags] when it has flags
// of its own, then its arguments.
func (c *command) helpLine() helpLine {
	u := "fiatramp " + c.name
	if c.ownFlags() {
		u += " [flags]"
	}
	if c.args != "" {
		u += " " + c.args
	}
	return helpLine{u, c.summary}
}

// ownFlags reports whether c has a flag that not every command calling
// the service has.
func (c *command) ownFlags() bool {
	fs, _ := c.flags(io.Discard)
	var common callFlags
	shared := flag.NewFlagSet("", flag.ContinueOnError)
	common.define(shared)
	own := false
	fs.VisitAll(func(f *flag.Flag) {
		if shared.Lookup(f.Name) == nil {
			own = true
		}
	})
	return own
}

// writeHelpLines writes lines indented by a tab, their summaries in one
// column.
func writeHelpLines(w io.Writer, lines []helpLine) {
	width := 0
	for _, l := range lines {
		width = max(width, len(l.usage))
	}
	for _, l := range lines {
		fmt.Fprintf(w, "\t%-*s  %s\n", width, l.usage, l.summary)
	}
}

// overview is the help of "fiatramp" alone: every command, grouped by
// the service it calls in the order of the library's index of operations,
// then the tools, the summaries in one column.
func overview() string {
	var b strings.Builder
	b.WriteString(usageIntro)
	type group struct {
		title string
		lines []helpLine
	}
	var groups []*group
	byWord := map[string]*group{}
	for _, c := range commands() {
		word, title := strings.Fields(c.name)[0], "Tools"
		if svc := serviceOf(word); svc != "" {
			title = svc
		} else {
			word = ""
		}
		g := byWord[word]
		if g == nil {
			g = &group{title: title}
			byWord[word] = g
			groups = append(groups, g)
		}
		g.lines = append(g.lines, c.helpLine())
	}
	tools := byWord[""]
	tools.lines = append([]helpLine{
		{"fiatramp sandbox [flags]", "serve a sandbox until interrupted"},
	}, append(tools.lines, helpLine{"fiatramp help [COMMAND]", "this help, or a command's flags and an example"})...)
	width := 0
	for _, g := range groups {
		for _, l := range g.lines {
			width = max(width, len(l.usage))
		}
	}
	for _, g := range groups {
		fmt.Fprintf(&b, "\n%s:\n", g.title)
		for _, l := range g.lines {
			fmt.Fprintf(&b, "\t%-*s  %s\n", width, l.usage, l.summary)
		}
	}
	b.WriteString(usageOutro)
	return b.String()
}

// order sorts cs as the help lists them: the commands of a service
// together, the services in the order of the library's index of operations
// (fiatramp.Operations), then the tools (sign, call, webhook); within a
// group, in the order given.
func order(cs []*command) {
	services := map[string]int{}
	for _, op := range fiatramp.Operations() {
		if _, ok := services[op.Service]; !ok {
			services[op.Service] = len(services)
		}
	}
	rank := func(c *command) int {
		if r, ok := services[serviceOf(strings.Fields(c.name)[0])]; ok {
			return r
		}
		return len(services)
	}
	sort.SliceStable(cs, func(i, j int) bool { return rank(cs[i]) < rank(cs[j]) })
}

// serviceOf is the library's service a group of commands calls ("Payouts"
// for "payouts", "KYC" for "kyc"), or "" for a group of tools.
func serviceOf(group string) string {
	for _, op := range fiatramp.Operations() {
		if strings.ToLower(op.Service) == group {
			return op.Service
		}
	}
	return ""
}

// commandName is the name of the command calling op ("Service.Method"):
// the service in lower case and the method in kebab case, an acronym kept
// as one word ("payouts save-edd" for Payouts.SaveEDD).
func commandName(op string) string {
	service, method, _ := strings.Cut(op, ".")
	var b strings.Builder
	r := []rune(method)
	for i, c := range r {
		if i > 0 && unicode.IsUpper(c) && (unicode.IsLower(r[i-1]) || i+1 < len(r) && unicode.IsLower(r[i+1])) {
			b.WriteByte('-')
		}
		b.WriteRune(unicode.ToLower(c))
	}
	return strings.ToLower(service) + " " + b.String()
}

// synopsis is c's usage line.
func (c *command) synopsis() string {
	return strings.TrimSpace("fiatramp " + c.name + " [flags] " + c.args)
}

// help is c's whole help text.
func (c *command) help(fs *flag.FlagSet) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Usage: %s\n\n%s\n", c.synopsis(), strings.TrimSpace(c.about))
	var any bool
	fs.VisitAll(func(*flag.Flag) { any = true })
	if any {
		b.WriteString("\nFlags:\n\n")
		w := fs.Output()
		fs.SetOutput(&b)
		fs.PrintDefaults()
		fs.SetOutput(w)
	}
	fmt.Fprintf(&b, "\nExample:\n\n")
	for _, line := range strings.Split(strings.TrimSpace(c.example), "\n") {
		fmt.Fprintf(&b, "\t%s\n", strings.TrimSpace(line))
	}
	return b.String()
}
