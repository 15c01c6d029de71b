package main

// What the commands that call the service share: the command table and its
// help, flag parsing, the client from the environment, and how an error
// becomes a message and an exit status.

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/google/uuid"

	fiatramp "github.com/fiatramp/fiatramp-go"
)

// Exit statuses of the command.
const (
	exitOK      = 0 // done
	exitRefused = 1 // refused by the service, or it could not be reached
	exitUsage   = 2 // bad input or command line; nothing was sent
	exitUnknown = 3 // the outcome is unknown: reconcile before acting
)

// defaultTimeout bounds a call, its retries included.
const defaultTimeout = time.Minute

// streams are the process's standard streams.
type streams struct {
	in       io.Reader
	out, err io.Writer
	// inTTY reports whether in is a terminal, where a person can confirm.
	inTTY bool
}

// command is one command of the tool, e.g. "payouts get".
type command struct {
	name string // words after "fiatramp"
	// op is the library's operation the command calls, "Service.Method"
	// (a row of fiatramp.Operations, or one of a row's Helpers); its name
	// is then the service and the method in kebab case ("payouts
	// get-balance" for Payouts.GetBalance). "" for a command that is not
	// one operation (sign, call, payouts reconcile).
	op      string
	args    string // what follows the flags in the synopsis
	summary string // one line for the command list
	about   string // a paragraph for the command's own help
	example string // a shell example, one command a line
	// setup defines the command's flags on fs and returns the function
	// that runs it with the remaining arguments.
	setup func(fs *flag.FlagSet) func(ctx context.Context, s streams, args []string) error
}

// commands is the table of commands that call the service or sign, in
// the order of the help: by service as the library's index of operations
// orders them, then the tools (see order).
func commands() []*command {
	cs := []*command{
		payoutsGetCommand(),
		payoutsGetBalanceCommand(),
		payoutsCreateCommand(),
		payoutsGetConfigurationCommand(),
		payoutsGetRateCommand(),
		payoutsGetLimitsCommand(),
		payoutsSaveEDDCommand(),
		payoutsCreateQuotationCommand(),
		payoutsGetQuotationCommand(),
		payoutsLinkTransferCommand(),
		payoutsListCommand(),
		payoutsReconcileCommand(),
		payinsCreateQuotationCommand(),
		payinsGetQuotationCommand(),
		payinsInitiateCommand(),
		payinsGetCommand(),
		payinsListCommand(),
		payinsLinkTransferCommand(),
		payinsSimulateStatusCommand(),
		payinsGetConfigurationCommand(),
		payinsGetRateCommand(),
		payinsGetLimitsCommand(),
		payinsSaveEDDCommand(),
		customersCreateCommand(),
		customersGetCommand(),
		customersListCommand(),
		customersBankAccountsCommand(),
		customersAddBankAccountCommand(),
		kycGetConfigurationCommand(),
		kycAddDataCommand(),
		kycUpdateTaxInfoCommand(),
		kycUpdateDocumentInfoCommand(),
		kycUpdateSelfieCommand(),
		kycUpdateAdditionalInfoCommand(),
		kycResetCommand(),
		kycGenerateLinkCommand(),
		organizationSetWebhookURLCommand(),
		widgetInitializeCommand(),
		callCommand(),
		signCommand(),
		webhookVerifyCommand(),
		webhookSendCommand(),
	}
	order(cs)
	return cs
}

// findCommand returns the command args start with and the arguments after
// its name, or nil.
func findCommand(args []string) (*command, []string) {
	for _, c := range commands() {
		words := strings.Fields(c.name)
		if len(args) >= len(words) && slicesEqual(args[:len(words)], words) {
			return c, args[len(words):]
		}
	}
	return nil, nil
}

func slicesEqual(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// flags returns c's flag set, with its help (synopsis, about, flags,
// example) on out.
func (c *command) flags(out io.Writer) (*flag.FlagSet, func(context.Context, streams, []string) error) {
	fs := flag.NewFlagSet("fiatramp "+c.name, flag.ContinueOnError)
	fs.SetOutput(out)
	run := c.setup(fs)
	fs.Usage = func() { fmt.Fprint(fs.Output(), c.help(fs)) }
	return fs, run
}

// runCommand parses c's flags from args and runs it.
func runCommand(ctx context.Context, c *command, s streams, args []string) error {
	fs, run := c.flags(s.err)
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return &usageError{err.Error()}
	}
	return run(ctx, s, rest)
}

// parseInterspersed parses fs from args, allowing flags after positional
// arguments ("payouts get ID -o table"), and returns the positional
// arguments. After "--" everything is positional.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// misuse prints msg and c's synopsis and returns a usage error.
func misuse(s streams, c *command, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	fmt.Fprintf(s.err, "fiatramp %s: %s\nUsage: %s (see fiatramp help %s)\n", c.name, msg, c.synopsis(), c.name)
	return &usageError{msg}
}

// wantArgs checks the number of positional arguments.
func wantArgs(s streams, c *command, args []string, min, max int) error {
	switch {
	case len(args) < min:
		return misuse(s, c, "want %d argument(s), got %d", min, len(args))
	case len(args) > max:
		return misuse(s, c, "unexpected argument %q", args[max])
	}
	return nil
}

// parseID parses a uuid argument or flag value named what.
func parseID(s streams, c *command, what, v string) (uuid.UUID, error) {
	id, err := uuid.Parse(v)
	if err != nil || len(v) != 36 {
		return uuid.Nil, misuse(s, c, "%s %q is not a uuid (want xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)", what, v)
	}
	return id, nil
}

// caller is what a command calls once its input is checked: the service
// with cl, bounded by ctx. It returns the answer, a result of the library
// (a pointer to a struct with the Raw JSON it was decoded from, which is
// what prints) or a printer.
type caller func(ctx context.Context, cl *fiatramp.Client) (any, error)

// printer is an answer that prints itself as output (-o) says: a list, a
// table of its own.
type printer func(s streams, output string) error

// callAndPrint is how every command that calls the service ends, written
// once: the client from the environment, the call bounded by -timeout and
// the answer printed as -o says (fields are the rows of its table).
func (f *callFlags) callAndPrint(ctx context.Context, s streams, c *command, fields []field, call caller) error {
	cl, err := f.newClient(s, c)
	if err != nil {
		return err
	}
	return f.callWith(ctx, s, cl, fields, call)
}

// confirmAndCall is callAndPrint for a command that acts (moves money,
// resets a customer) and so asks first, unless ask is false: question is
// what it asks, given the base URL the call goes to.
func (f *callFlags) confirmAndCall(ctx context.Context, s streams, c *command, ask bool, question func(baseURL string) string, fields []field, call caller) error {
	cl, err := f.newClient(s, c)
	if err != nil {
		return err
	}
	if ask {
		if err := confirm(s, c, question(cl.BaseURL())); err != nil {
			return err
		}
	}
	return f.callWith(ctx, s, cl, fields, call)
}

// callWith is the call with cl, bounded by -timeout, and the answer
// printed.
func (f *callFlags) callWith(ctx context.Context, s streams, cl *fiatramp.Client, fields []field, call caller) error {
	ctx, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	answer, err := call(ctx, cl)
	if err != nil {
		return err
	}
	if p, ok := answer.(printer); ok {
		return p(s, f.output)
	}
	raw, err := rawOf(answer)
	if err != nil {
		return err
	}
	return f.print(s, raw, fields)
}

// rawOf is the JSON a result of the library was decoded from: its Raw
// member.
func rawOf(answer any) (json.RawMessage, error) {
	if raw, ok := answer.(json.RawMessage); ok {
		return raw, nil
	}
	v := reflect.ValueOf(answer)
	if v.Kind() == reflect.Pointer && !v.IsNil() && v.Elem().Kind() == reflect.Struct {
		if raw, ok := v.Elem().FieldByName("Raw").Interface().(json.RawMessage); ok {
			return raw, nil
		}
	}
	return nil, fmt.Errorf("answer %T has no Raw JSON to print", answer)
}

// print writes one object as JSON or as a record table.
func (f *callFlags) print(s streams, raw json.RawMessage, fields []field) error {
	if f.output == "table" {
		return record(s.out, raw, fields)
	}
	return writeJSON(s.out, raw)
}

// idCaller is the call of a command whose one argument is an id.
type idCaller func(ctx context.Context, cl *fiatramp.Client, id uuid.UUID) (any, error)

// withID completes c, a command whose one argument is an id (c.args) and
// whose flags are the call flags: it parses the id and calls and prints as
// callAndPrint does.
func withID(c *command, fields []field, call idCaller) *command {
	var cf callFlags
	c.setup = func(fs *flag.FlagSet) func(context.Context, streams, []string) error {
		cf.define(fs)
		return func(ctx context.Context, s streams, args []string) error {
			if err := wantArgs(s, c, args, 1, 1); err != nil {
				return err
			}
			id, err := parseID(s, c, c.args, args[0])
			if err != nil {
				return err
			}
			return cf.callAndPrint(ctx, s, c, fields, func(ctx context.Context, cl *fiatramp.Client) (any, error) {
				return call(ctx, cl, id)
			})
		}
	}
	return c
}

// callFlags are the flags of every command that calls the service.
type callFlags struct {
	output       string
	timeout      time.Duration
	correctClock bool
}

func (f *callFlags) define(fs *flag.FlagSet) {
	fs.StringVar(&f.output, "o", "json", "output `format`: json (the response data, exact) or table")
	fs.DurationVar(&f.timeout, "timeout", defaultTimeout, "give up on the call after this `duration`, retries included")
	f.defineClock(fs)
}

// defineClock defines -correct-clock, the remedy the message of a refused
// timestamp names.
func (f *callFlags) defineClock(fs *flag.FlagSet) {
	fs.BoolVar(&f.correctClock, "correct-clock", false, "stamp requests by the service's clock (the Date header of its answers; a request\n"+
		"refused for its timestamp is sent once more, re-stamped): for a machine whose clock is off")
}

// check refuses an unknown output format.
func (f *callFlags) check(s streams, c *command) error {
	if f.output != "json" && f.output != "table" {
		return misuse(s, c, "-o %q: want json or table", f.output)
	}
	return nil
}

// newClient checks the flags and returns a client configured from
// FIATRAMP_API_KEY, FIATRAMP_API_SECRET and FIATRAMP_BASE_URL.
func (f *callFlags) newClient(s streams, c *command) (*fiatramp.Client, error) {
	if err := f.check(s, c); err != nil {
		return nil, err
	}
	if f.timeout <= 0 {
		return nil, misuse(s, c, "-timeout %v is not positive", f.timeout)
	}
	opts := []fiatramp.Option{fiatramp.WithUserAgent("fiatramp-cli")}
	if f.correctClock {
		opts = append(opts, fiatramp.WithClockCorrection())
	}
	cl, err := fiatramp.NewFromEnv(opts...)
	if err != nil {
		fmt.Fprintf(s.err, "fiatramp %s: %v\nSet %s, %s and %s (e.g. from the document \"fiatramp sandbox\" prints).\n",
			c.name, err, fiatramp.EnvAPIKey, fiatramp.EnvAPISecret, fiatramp.EnvBaseURL)
		return nil, &usageError{err.Error()}
	}
	return cl, nil
}

// maxAnswer bounds what confirm reads of an answer.
const maxAnswer = 256

// confirm asks a person on a terminal to confirm what; without a terminal
// it refuses. It returns nil only on "y" or "yes".
func confirm(s streams, c *command, what string) error {
	if !s.inTTY {
		fmt.Fprintln(s.err, what)
		return misuse(s, c, "not confirmed: pass --yes (standard input is not a terminal to ask on); nothing was sent")
	}
	fmt.Fprintf(s.err, "%s\nType yes to go ahead: ", what)
	// At most maxAnswer bytes: a character device that is not a terminal
	// (/dev/zero) may never send a line break.
	line, err := bufio.NewReader(io.LimitReader(s.in, maxAnswer)).ReadString('\n')
	if err != nil && line == "" {
		fmt.Fprintln(s.err)
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return nil
	}
	fmt.Fprintf(s.err, "fiatramp %s: not confirmed; nothing was sent\n", c.name)
	return &usageError{"not confirmed"}
}

// stdinIsTerminal reports whether standard input is a character device
// other than /dev/null, where a person can answer a question.
func stdinIsTerminal() bool {
	fi, err := os.Stdin.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err != nil || !os.SameFile(fi, null)
}

// libraryClockRemedy is the remedy the library's message of a refused
// timestamp names for Go code; message names the command's flag instead.
const libraryClockRemedy = "or use WithClockCorrection"

// message is err's text for the person at the shell: the library's
// remedy for clock skew, an option of its Go API, becomes the flag that
// sets it here.
func message(err error) string {
	return strings.ReplaceAll(err.Error(), libraryClockRemedy, "or pass -correct-clock")
}

// mismatchError is a finished command whose answer is "no" (a signature
// that does not match); it has printed its findings.
type mismatchError struct{ msg string }

func (e *mismatchError) Error() string { return e.msg }

// exitCode is the process status for err, which it describes on stderr
// (unless the command already did): see the exit constants.
func exitCode(err error, stderr io.Writer) int {
	var (
		ue  *usageError
		me  *mismatchError
		api *fiatramp.APIError
		ou  *fiatramp.OutcomeUnknownError
		un  *unsettledError
	)
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ue):
		return exitUsage
	case errors.As(err, &me):
		return exitRefused
	case errors.As(err, &ou):
		fmt.Fprintln(stderr, message(err))
		fmt.Fprintln(stderr, "  sentinel:", strings.Join(fiatramp.SentinelNames(err), ", "))
		if ou.ClientReferenceID != "" {
			fmt.Fprintf(stderr, "  reconcile: the operation may have taken effect. Repeat the same create with --reference %s\n"+
				"             (it cannot pay twice): success means it is new, ErrClientReferenceExists or\n"+
				"             ErrQuotationAlreadyLinked means the first attempt created it.\n", ou.ClientReferenceID)
		} else {
			fmt.Fprintln(stderr, "  reconcile: the operation may have taken effect; check before repeating it.")
		}
		if a, ok := outcomeAttempt(ou); ok {
			fmt.Fprintln(stderr, "  settle it (reads only):", reconcileCommandLine(a))
		}
		return exitUnknown
	case errors.As(err, &un):
		fmt.Fprintln(stderr, "fiatramp:", un.Error())
		return exitUnknown
	case errors.Is(err, fiatramp.ErrInvalidRequest):
		fmt.Fprintln(stderr, message(err))
		fmt.Fprintln(stderr, "  sentinel:", strings.Join(fiatramp.SentinelNames(err), ", "))
		fmt.Fprintln(stderr, "  nothing was sent")
		return exitUsage
	case errors.As(err, &api):
		fmt.Fprintln(stderr, message(err))
		fmt.Fprintln(stderr, "  status:", api.StatusCode)
		if api.Code != "" {
			fmt.Fprintln(stderr, "  err_code:", printable(api.Code))
		}
		if api.Message != "" {
			fmt.Fprintln(stderr, "  message:", printable(api.Message))
		}
		fields := make([]string, 0, len(api.FieldErrors))
		for f := range api.FieldErrors {
			fields = append(fields, f)
		}
		sort.Strings(fields)
		for _, f := range fields {
			fmt.Fprintf(stderr, "  errors.%s: %s\n", printable(f), printable(strings.Join(api.FieldErrors[f], " ")))
		}
		if api.ErrorText != "" {
			fmt.Fprintln(stderr, "  errors:", printable(api.ErrorText))
		}
		if names := fiatramp.SentinelNames(err); len(names) > 0 {
			fmt.Fprintln(stderr, "  sentinel:", strings.Join(names, ", "))
		}
		return exitRefused
	default:
		fmt.Fprintln(stderr, "fiatramp:", message(err))
		if names := fiatramp.SentinelNames(err); len(names) > 0 {
			fmt.Fprintln(stderr, "  sentinel:", strings.Join(names, ", "))
		}
		return exitRefused
	}
}
