package e2e

// The harness: everything an end-to-end test needs to run the real extension
// in real Chromium against the real host. Recording and replay tests build on
// it, so its API is kept small and stable:
//
//	func TestMain(m *testing.M) { os.Exit(e2e.Main(m)) }
//
//	HostPath(t) string               the host binary, built once per test binary
//	RunHost(t, env, stdin, args...)  runs it as a command: stdout, stderr, exit code
//	TempDir(t) string                a folder the leak check watches
//	Serve(t) *httptest.Server        the fixture pages of testdata/pages on loopback
//	ServeDir(t, dir)                 any folder of pages on loopback
//	StartBrowser(t, Options) *Browser
//	                                 headless Chromium with its own profile and the
//	                                 extension loaded; the host is installed into
//	                                 the profile unless Options says otherwise
//	(*Browser).OpenPopup(t)          a tab on chrome-extension://<id>/popup.html
//	(*Browser).OpenTab(t, url)       a tab on an app page
//	HostRequest(t, page, type, body) sends a request to the host the way extension
//	                                 pages do (through the background), from a tab
//	                                 on an extension page such as the popup
//	WaitFor[T](t, ctx, js)           polls a JavaScript expression until truthy
//	Eval[T](t, ctx, js)              evaluates once
//
// Every browser, tab, temp folder and process is cleaned up by t.Cleanup,
// and Main fails the run if any process started by the harness outlives it.
//
// Most tests here spend their time waiting for a browser, so Main lets
// Parallel of them run at once rather than go test's GOMAXPROCS (go test
// -parallel still decides when given). Under -short every test that starts
// Chromium (StartBrowser, a host command that replays) is skipped.
//
// Extensions do not run in the extra browser contexts CDP creates (their
// pages fail with ERR_BLOCKED_BY_CLIENT there), so every test that needs the
// extension starts a browser of its own; tabs of one browser share its
// profile and its connection to the host.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/trailpin/trailpin/browser"
	"github.com/trailpin/trailpin/e2e/browsertest"
	"github.com/trailpin/trailpin/extension"
	"github.com/trailpin/trailpin/installer"
)

// Generous deadlines: the machines that run these tests are shared and slow
// at times, and a deadline only bounds how long a real failure takes.
const (
	// StartTimeout bounds starting a browser.
	StartTimeout = 90 * time.Second
	// WaitTimeout bounds one wait for a page condition.
	WaitTimeout = 60 * time.Second
	// RunTimeout bounds one host command (or one Playwright run of a real
	// app's flow): a replay of a real app's 50-step trail, whose pages wait
	// to settle after each step, took four minutes on two cores loaded by
	// the rest of the suite, so this only catches a run that hangs.
	RunTimeout = 10 * time.Minute
	// closeTimeout bounds a graceful browser shutdown before it is killed.
	closeTimeout = 20 * time.Second
	// Parallel is how many tests Main lets run at once by default. The
	// tests wait for browsers, hosts and page loads far more than they
	// compute: with four at a time a quiet two-core machine stayed 60%
	// idle through ./scripts/test (917 s of CPU in 1,140 s), so six run
	// at once. Each test bounds its waits by events, not by a guess of
	// how busy the machine is.
	Parallel = 6
)

var (
	// root holds everything the harness creates: the host binary and each
	// browser's folders. Processes whose command line mentions it are the
	// harness's own, which is how Main finds leaks.
	root string
)

// Main runs the tests of an e2e package. Call it from TestMain. It creates
// the harness's folder, runs the tests, removes the folder, and fails the run
// when a browser or host process started by a test is still alive.
func Main(m *testing.M) int {
	flag.Parse()
	browsertest.DefaultParallel(Parallel)
	// Nearly every test here drives Chromium, or a host that starts it;
	// under -short only those that need no browser run.
	if _, err := browser.FindChrome(); err != nil && !testing.Short() {
		return browsertest.MissingInMain(err)
	}
	var err error
	root, err = os.MkdirTemp("", "trailpin-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	code := m.Run()
	if leaks := leakedProcesses(root, 10*time.Second); len(leaks) > 0 {
		fmt.Fprintf(os.Stderr, "e2e: %d processes started by the tests are still running:\n  %s\n", len(leaks), strings.Join(leaks, "\n  "))
		code = 1
	}
	os.RemoveAll(root)
	return code
}

// RepoRoot is the module's root folder (this file is in e2e/).
func RepoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(filepath.Dir(file))
}

// ExtensionDir is the unpacked extension folder the browser loads.
func ExtensionDir() string { return filepath.Join(RepoRoot(), "extension") }

// ExtensionID is the ID Chromium gives the unpacked extension, fixed by the
// key in its manifest.
func ExtensionID(t testing.TB) string {
	id, err := extension.ID()
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// HostPath returns the host binary, built once per test binary with
// `go build` into the harness's folder. The build has no deadline of its
// own: on a loaded machine it takes minutes, and go test's -timeout catches
// one that hangs.
func HostPath(t testing.TB) string {
	t.Helper()
	return builtHost(t, "")
}

// HostPathTagged returns a host binary built with the build tags tags (one
// binary per set of tags, built once), such as the trailpin_noredact build
// that proves the leak scanner finds what redaction hides.
func HostPathTagged(t testing.TB, tags string) string {
	t.Helper()
	return builtHost(t, tags)
}

// A hostBuild is one host binary, built at most once.
type hostBuild struct {
	once sync.Once
	path string
	err  error
}

var (
	buildsMu sync.Mutex
	builds   = map[string]*hostBuild{}
)

func builtHost(t testing.TB, tags string) string {
	t.Helper()
	if root == "" {
		t.Fatal("e2e: call e2e.Main from TestMain")
	}
	buildsMu.Lock()
	b := builds[tags]
	if b == nil {
		b = &hostBuild{}
		builds[tags] = b
	}
	buildsMu.Unlock()
	b.once.Do(func() {
		name := "host"
		if tags != "" {
			name += "-" + strings.ReplaceAll(tags, ",", "-")
		}
		b.path = filepath.Join(root, "bin", name)
		if runtime.GOOS == "windows" {
			b.path += ".exe"
		}
		args := []string{"build", "-o", b.path}
		if tags != "" {
			args = append(args, "-tags", tags)
		}
		cmd := exec.Command("go", append(args, "./host")...)
		cmd.Dir = RepoRoot()
		if out, err := cmd.CombinedOutput(); err != nil {
			b.err = fmt.Errorf("building the host (tags %q): %v\n%s", tags, err, out)
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.path
}

// A HostRun is the outcome of running the host as a command.
type HostRun struct {
	Stdout, Stderr []byte
	// ExitCode is the process's exit status.
	ExitCode int
	// Elapsed is the process's wall time, from its start to its exit.
	Elapsed time.Duration
}

// RunHost runs the host binary with args, the environment env (added to a
// minimal one: PATH, CHROME_PATH, and HOME and XDG folders in a fresh temp
// folder unless env sets them) and stdin. It fails the test only when the process cannot
// be run, and marks it failed when the process does not finish within
// RunTimeout (it is killed: ExitCode -1); a non-zero exit is reported in
// ExitCode.
func RunHost(t testing.TB, env []string, stdin []byte, args ...string) HostRun {
	t.Helper()
	needBrowserFor(t, args)
	return RunHostBinary(t, HostPath(t), env, stdin, args...)
}

// RunHostBinary is RunHost with the host binary at path (HostPathTagged).
// Under -short a command that starts Chromium skips the test.
func RunHostBinary(t testing.TB, path string, env []string, stdin []byte, args ...string) HostRun {
	t.Helper()
	needBrowserFor(t, args)
	ctx, cancel := context.WithTimeout(context.Background(), RunTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, args...)
	home := t.TempDir()
	cmd.Env = append([]string{
		"PATH=" + os.Getenv("PATH"),
		"CHROME_PATH=" + os.Getenv("CHROME_PATH"),
		"HOME=" + home,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"),
	}, env...)
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	began := time.Now()
	err := cmd.Run()
	elapsed := time.Since(began)
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("running host %s: %v", strings.Join(args, " "), err)
	}
	if ctx.Err() != nil {
		t.Errorf("host %s did not finish within %s and was killed:\n%s\n%s", strings.Join(args, " "), RunTimeout, out.Bytes(), errOut.Bytes())
	}
	return HostRun{Stdout: out.Bytes(), Stderr: errOut.Bytes(), ExitCode: cmd.ProcessState.ExitCode(), Elapsed: elapsed}
}

// startsBrowser are the host commands that start Chromium.
var startsBrowser = map[string]bool{"replay": true, "snapshot": true, "demo": true, "doctor": true, "mcp": true}

// needBrowserFor skips the test under -short when the host command args
// starts Chromium.
func needBrowserFor(t testing.TB, args []string) {
	t.Helper()
	if len(args) > 0 && startsBrowser[args[0]] {
		browsertest.Need(t)
	}
}

// TempDir returns a fresh folder inside the harness's folder, removed when
// the test ends. Processes started with it on their command line are found
// by the leak check, which is why tests should prefer it to t.TempDir for
// homes and profiles.
func TempDir(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp(root, "tmp-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// Serve serves testdata/pages of the e2e folder on loopback for the test.
func Serve(t testing.TB) *httptest.Server {
	t.Helper()
	return ServeDir(t, filepath.Join(RepoRoot(), "e2e", "testdata", "pages"))
}

// ServeDir serves the files of dir on loopback for the test.
func ServeDir(t testing.TB, dir string) *httptest.Server {
	t.Helper()
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		t.Fatalf("e2e: no fixture folder %s", dir)
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	t.Cleanup(srv.Close)
	return srv
}

// Options says how StartBrowser prepares the browser.
type Options struct {
	// NoHost leaves the profile without a host manifest.
	NoHost bool
	// UserDataDir is the profile folder; a fresh one when empty. When set,
	// the caller owns the folder and installs the host into it (NoHost is
	// implied).
	UserDataDir string
	// AllowedExtensionID is the extension the installed manifest allows;
	// Trailpin's by default.
	AllowedExtensionID string
	// HostPath is the executable the manifest names; the built host by
	// default.
	HostPath string
	// Env is added to the browser's environment, which the host inherits.
	// By default HOME, XDG_CONFIG_HOME, XDG_DATA_HOME and XDG_RUNTIME_DIR
	// point into the browser's own temp folder, so the host's log, database
	// and agent API discovery file stay there.
	Env []string
}

// A Browser is a headless Chromium with the extension loaded.
type Browser struct {
	// Ctx is the browser's first tab; new tabs derive from it.
	Ctx context.Context
	// Dir is the browser's own temp folder (profile, home, data).
	Dir string
	// UserDataDir is the Chromium profile folder.
	UserDataDir string
	// DataDir is the host's data directory under the default environment.
	DataDir string
	// ExtensionID is the loaded extension's ID.
	ExtensionID string
}

// StartBrowser starts headless Chromium through browser.AllocatorOptions with
// the extension loaded and, unless opts says otherwise, the host installed
// into the profile's NativeMessagingHosts folder with the installer package.
// The browser and every process it started are gone when the test ends.
func StartBrowser(t testing.TB, opts Options) *Browser {
	t.Helper()
	browsertest.Need(t)
	if root == "" {
		t.Fatal("e2e: call e2e.Main from TestMain")
	}
	dir, err := os.MkdirTemp(root, "browser-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) }) // runs last: after the browser is gone
	b := &Browser{
		Dir:         dir,
		UserDataDir: opts.UserDataDir,
		DataDir:     filepath.Join(dir, "home", ".local", "share", "trailpin"),
		ExtensionID: ExtensionID(t),
	}
	if b.UserDataDir == "" {
		b.UserDataDir = filepath.Join(dir, "profile")
		if !opts.NoHost {
			installHost(t, b, opts)
		}
	}
	env := append([]string{
		"HOME=" + filepath.Join(dir, "home"),
		"XDG_CONFIG_HOME=" + filepath.Join(dir, "home", ".config"),
		"XDG_DATA_HOME=" + filepath.Join(dir, "home", ".local", "share"),
		// The agent API's discovery file, never the real runtime folder's.
		"XDG_RUNTIME_DIR=" + filepath.Join(dir, "run"),
	}, opts.Env...)

	allocOpts, err := browser.AllocatorOptions(browser.LaunchOptions{
		Headless:    true,
		UserDataDir: b.UserDataDir,
		Extension:   ExtensionDir(),
	})
	if err != nil {
		browsertest.Missing(t, err)
	}
	allocOpts = append(allocOpts, chromedp.Env(env...))
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), allocOpts...)
	ctx, cancelBrowser := chromedp.NewContext(allocCtx)
	t.Cleanup(func() {
		closeCtx, cancel := context.WithTimeout(ctx, closeTimeout)
		defer cancel()
		_ = chromedp.Cancel(closeCtx)
		cancelBrowser()
		cancelAlloc() // waits for the browser process to exit
	})
	if err := start(ctx, cancelBrowser); err != nil {
		t.Fatalf("e2e: starting Chromium: %v", err)
	}
	b.Ctx = ctx
	return b
}

// start runs the first action on a chromedp context, which starts its
// browser or opens its tab. It must run on ctx itself, as a context derived
// from it would close the browser or tab when it ends; so the deadline is
// kept here, cancelling ctx when it passes.
func start(ctx context.Context, cancel context.CancelFunc) error {
	started := make(chan error, 1)
	go func() { started <- chromedp.Do(ctx) }()
	select {
	case err := <-started:
		return err
	case <-time.After(StartTimeout):
		cancel()
		return fmt.Errorf("no answer within %v", StartTimeout)
	}
}

// installHost writes the host manifest into the profile, where Chromium looks
// for per-user native-messaging hosts.
func installHost(t testing.TB, b *Browser, opts Options) {
	t.Helper()
	path := opts.HostPath
	if path == "" {
		path = HostPath(t)
	}
	id := opts.AllowedExtensionID
	if id == "" {
		id = b.ExtensionID
	}
	m, err := installer.NewManifest(installer.Current(), path, id)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := installer.WriteManifestTo(filepath.Join(b.UserDataDir, "NativeMessagingHosts"), m); err != nil {
		t.Fatal(err)
	}
}

// ExtensionURL is the address of a page of the extension.
func (b *Browser) ExtensionURL(page string) string {
	return "chrome-extension://" + b.ExtensionID + "/" + page
}

// OpenTab opens url in a new tab of b and returns the tab's context; the tab
// closes when the test ends.
func (b *Browser) OpenTab(t testing.TB, url string) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(b.Ctx)
	t.Cleanup(cancel)
	if err := start(ctx, cancel); err != nil {
		t.Fatalf("e2e: opening a tab: %v", err)
	}
	navCtx, cancelNav := context.WithTimeout(ctx, WaitTimeout)
	defer cancelNav()
	if err := chromedp.Do(navCtx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("e2e: opening %s: %v", url, err)
	}
	return ctx
}

// OpenPopup opens the toolbar popup's page in a tab.
func (b *Browser) OpenPopup(t testing.TB) context.Context {
	t.Helper()
	return b.OpenTab(t, b.ExtensionURL("popup.html"))
}

// WaitFor polls the JavaScript expression js in the tab until it is truthy
// and returns its value, failing the test after WaitTimeout, or at once when
// js throws. The polling is the test's, one bounded evaluation at a time,
// not a loop left running in the page: a page poll answers only when the
// page's own timers run, and a popup tab whose evaluation the loaded
// browser never answered held TestRecordDragSortableJS, and the package with
// it, for half an hour.
func WaitFor[T any](t testing.TB, ctx context.Context, js string) T {
	t.Helper()
	return WaitForWithin[T](t, ctx, js, WaitTimeout)
}

// WaitForWithin is WaitFor with another bound than WaitTimeout: for a wait
// the product bounds itself with a longer timeout (the popup's requests to
// the host), the product's bound, so that the test never gives up before
// the product does.
func WaitForWithin[T any](t testing.TB, ctx context.Context, js string, within time.Duration) T {
	t.Helper()
	// An array, so that a falsy value (false, "", 0, null) reads as not yet.
	expr := "(async () => { const v = await (" + js + "); return v ? [v] : null; })()"
	gesture := func(p *cdpruntime.EvaluateParams) { p.UserGesture = new(true) }
	deadline := time.Now().Add(within)
	var last error
	for {
		look := min(lookTimeout, time.Until(deadline)+time.Second)
		lctx, cancel := context.WithTimeout(ctx, look)
		got, err := chromedp.Run(lctx, chromedp.Evaluate[[]T](expr, chromedp.EvalAwaitPromise, gesture))
		cancel()
		var thrown *chromedp.ExceptionError
		switch {
		case err == nil && len(got) == 1:
			return got[0]
		case errors.As(err, &thrown):
			t.Fatalf("e2e: waiting for %s: %v", js, err)
		case ctx.Err() != nil:
			t.Fatalf("e2e: waiting for %s: %v", js, ctx.Err())
		case err != nil:
			last = err // a look the browser did not answer in time, a page that was loading
		}
		if time.Now().After(deadline) {
			if last != nil {
				t.Fatalf("e2e: waiting for %s: still not true after %s (the last look failed: %v)", js, within, last)
			}
			t.Fatalf("e2e: waiting for %s: still not true after %s", js, within)
		}
		select {
		case <-ctx.Done():
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// lookTimeout bounds one evaluation of WaitFor's expression.
const lookTimeout = 15 * time.Second

// Eval evaluates the JavaScript expression js in the tab once.
func Eval[T any](t testing.TB, ctx context.Context, js string) T {
	t.Helper()
	evalCtx, cancel := context.WithTimeout(ctx, WaitTimeout)
	defer cancel()
	v, err := chromedp.Run(evalCtx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("e2e: evaluating %s: %v", js, err)
	}
	return v
}

// A PageReply is the background's answer to an extension page's request
// (PageReply in extension/protocol.js).
type PageReply struct {
	OK    bool           `json:"ok"`
	Reply map[string]any `json:"reply"`
	Error string         `json:"error"`
	Code  int            `json:"code"`
}

// HostRequest sends a request of type typ with body's fields to the host
// through the extension's background, from page (a tab on an extension page,
// such as OpenPopup's), and returns the background's answer.
func HostRequest(t testing.TB, page context.Context, typ string, body map[string]any) PageReply {
	t.Helper()
	req, err := json.Marshal(map[string]any{"to": "background", "kind": "request", "type": typ, "body": body})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(page, WaitTimeout)
	defer cancel()
	reply, err := chromedp.Run(ctx, chromedp.Evaluate[PageReply](
		"chrome.runtime.sendMessage("+string(req)+")", chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("e2e: host request %s: %v", typ, err)
	}
	return reply
}
