package main

import (
	"context"
	"errors"
	"log/slog"
	"sync"

	"github.com/trailpin/trailpin/host/nativemsg"
)

// answers correlates the host's requests to the extension with the
// extension's answers, which come back as messages of their own (an
// agent.page answered by an agent.pageResult, an api.request by an
// api.result) carrying the request's id. T is the answer's typed body.
type answers[T any] struct {
	// what names the answer message in the log ("an api.result").
	what string
	// unreadable is the answer handed on when the extension's message
	// cannot be decoded: the request ends with it, never waits forever.
	unreadable T
	log        *slog.Logger
	// done, when closed, ends every request still waiting (the browser
	// closed the connection).
	done <-chan struct{}

	mu      sync.Mutex
	waiting map[string]chan T
}

func newAnswers[T any](what string, unreadable T, log *slog.Logger, done <-chan struct{}) *answers[T] {
	return &answers[T]{what: what, unreadable: unreadable, log: log, done: done, waiting: map[string]chan T{}}
}

// ask sends body as a message of type typ on conn and waits for the
// answer of its id, the context's end, or the connection's.
func (a *answers[T]) ask(ctx context.Context, conn *nativemsg.Conn, typ string, body any) (T, error) {
	var zero T
	id := conn.NewID()
	ch := make(chan T, 1)
	a.mu.Lock()
	a.waiting[id] = ch
	a.mu.Unlock()
	defer func() {
		a.mu.Lock()
		delete(a.waiting, id)
		a.mu.Unlock()
	}()
	if err := conn.Send(id, typ, body); err != nil {
		return zero, err
	}
	select {
	case ans := <-ch:
		return ans, nil
	case <-ctx.Done():
		return zero, ctx.Err()
	case <-a.done:
		return zero, errors.New("the browser closed the connection")
	}
}

// handle is the handler of the answer message: it hands the answer to the
// request waiting for it, and has no reply. An answer nobody waits for (its
// request gave up) is dropped.
func (a *answers[T]) handle(ctx context.Context, req *nativemsg.Request) (nativemsg.Reply, error) {
	var ans T
	if err := req.Decode(&ans); err != nil {
		a.log.Warn(a.what+" could not be read", "id", req.ID, "err", err)
		ans = a.unreadable
	}
	a.mu.Lock()
	ch := a.waiting[req.ID]
	delete(a.waiting, req.ID)
	a.mu.Unlock()
	if ch != nil {
		ch <- ans
	}
	return nativemsg.NoReply, nil
}
