package replay

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/chromedp/cdproto/runtime"
)

// The timers an action set off. What an app does a moment after an action
// (a debounced undo entry after a key, a validation, a search as you type,
// a verdict after a click) it does from a timer the action's handler set:
// JSONEditor's debounce is a setTimeout of 150 ms. Three waits wait for
// those timers to run instead of for a long quiet that every action would
// pay whether it set a timer or not: the wait after typing (afterTyping),
// the hold of a step's end values (end_values.go) and the settle of an
// absence (wait_settle.go).
//
// The page's own setTimeout is the only place that knows them, so every
// document replay opens gets, in its main world and before its own
// scripts, a wrapper around setTimeout and clearTimeout (a Proxy: the
// functions still read as native code, and behave as before). Replay opens
// it before each action it performs and closes it after. A timer is the
// action's when it was set while the action was under way (between open
// and close) outside any timer's callback, or from the callback of a timer
// that was the action's: a debounce that chains a second one (an undo
// entry, then a validation) is followed to its end. A timer set from the
// callback of one that was not (a poll the page set going before the
// action, which sets its next turn from each turn), or by a promise that
// resumes after the action, is not the action's, so a page that polls
// forever does not hold the wait. Only timers of at most timerLongest
// count: a toast that hides itself after five seconds is not what the
// next action waits for.
//
// Page content is the app's: the page can read and change the wrapper
// (it is the app under test), and the answer only decides how long replay
// waits, bounded by each wait's limit. A document whose scripts ran before
// the wrapper came (one loaded before replay prepared the tab) answers -1,
// and so does "idle" on a document no action was under way in (one the
// action before loaded: the timers its scripts set at load are not
// followed); the wait then falls back to a quiet of set length.

// timerLongest is the longest timer the waits wait for.
const timerLongest = 1000

// typingQuiet is how long the page must not change after typing that
// began a request, once the typing's timers have run and no request of it
// is in flight: the app handles an answer a moment after the browser has
// it, which no frame tells (afterTyping). Without a request, two quiet
// frames do (awaitFrames).
const typingQuiet = 150 * time.Millisecond

// timersScript wraps the page's setTimeout and clearTimeout; its function
// (at the symbol trailpin.actionTimers) takes "open", "close", "pending" or "idle"
// with a bound in milliseconds (a promise of the count still pending once
// none is, or at the bound).
var timersScript = `(() => {
  const key = Symbol.for('trailpin.actionTimers');
  if (Object.prototype.hasOwnProperty.call(globalThis, key)) return;
  const late = document.readyState !== 'loading';
  const longest = ` + strconv.Itoa(timerLongest) + `;
  const pending = new Set();
  let open = false, epoch = 0, inside = 0, waiters = [];
  const settle = () => {
    if (pending.size) return;
    const ws = waiters;
    waiters = [];
    for (const w of ws) w(0);
  };
  const wrap = (fn, mine) => function (...a) {
    const prev = inside;
    inside = mine;
    try { return Reflect.apply(fn, this, a); } finally { inside = prev; }
  };
  const setTimeoutNative = globalThis.setTimeout, clearTimeoutNative = globalThis.clearTimeout;
  globalThis.setTimeout = new Proxy(setTimeoutNative, {
    apply(target, self, args) {
      const fn = args[0];
      if (typeof fn !== 'function') return Reflect.apply(target, self, args);
      const ours = epoch > 0 && (inside === epoch || open && inside === 0) && (Number(args[1]) || 0) <= longest;
      if (!ours) {
        args[0] = wrap(fn, -1);
        return Reflect.apply(target, self, args);
      }
      let id;
      const mine = epoch;
      const run = wrap(fn, mine);
      args[0] = function (...a) {
        try { return Reflect.apply(run, this, a); } finally { if (pending.delete(id)) settle(); }
      };
      id = Reflect.apply(target, self, args);
      pending.add(id);
      return id;
    },
  });
  globalThis.clearTimeout = new Proxy(clearTimeoutNative, {
    apply(target, self, args) {
      if (pending.delete(args[0])) queueMicrotask(settle);
      return Reflect.apply(target, self, args);
    },
  });
  Object.defineProperty(globalThis, key, {
    value: (what, bound) => {
      if (late) return -1;
      switch (what) {
        case 'open': epoch++; open = true; pending.clear(); return 0;
        case 'close': open = false; return pending.size;
        case 'idle':
          if (!epoch) return -1;
          if (!pending.size) return 0;
          return new Promise((done) => {
            waiters.push(done);
            setTimeoutNative(() => done(pending.size), bound);
          });
      }
      return pending.size;
    },
  });
})()`

// timersCall is the expression that calls the wrapper's function with what.
func timersCall(what string, bound time.Duration) string {
	return fmt.Sprintf(`(() => { const f = globalThis[Symbol.for('trailpin.actionTimers')]; return f ? f(%q, %d) : -1; })()`, what, bound.Milliseconds())
}

// actionTimers asks the top document's wrapper what (open, close or idle,
// idle waiting up to bound), and returns the count of the last action's
// timers still pending, -1 when the document has no wrapper it can trust.
func (p *tab) actionTimers(ctx context.Context, what string, bound time.Duration) int {
	r, err := call(ctx, p, runtime.Evaluate, runtime.EvaluateParams{
		Expression: timersCall(what, bound), AwaitPromise: new(true), ReturnByValue: new(true), Silent: new(true),
	})
	if err != nil || r.ExceptionDetails != nil || r.Result == nil {
		return -1
	}
	var n int
	if json.Unmarshal(r.Result.Value, &n) != nil {
		return -1
	}
	return n
}

// inFrame says whether ref names an element inside a frame (f<K>e<N>):
// aim follows it into the frame, and the top document's wrapper of
// setTimeout does not see its timers.
func inFrame(ref string) bool { return strings.HasPrefix(ref, "f") }
