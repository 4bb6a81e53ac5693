package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"

	"github.com/trailpin/trailpin/host/config"
	"github.com/trailpin/trailpin/host/nativemsg"
	"github.com/trailpin/trailpin/host/recording"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/storage"
)

// The native-messaging door of the recording service (host/recording):
// each message type is one of its operations, its fields the operation's
// typed request and its reply the typed answer (host/PROTOCOL.md,
// Recording).

// The recording's message types (host/PROTOCOL.md, Recording).
const (
	typeRecordStart       = "record.start"
	typeRecordInteraction = "record.interaction"
	typeRecordResume      = "record.resume"
	typeRecordStatus      = "record.status"
	typeRecordStop        = "record.stop"
	typeRecordChanges     = "record.changes"
	typeRecordReview      = "record.review"
	typeRecordChoose      = "record.choose"
	typeRecordSave        = "record.save"
	typeRecordDiscard     = "record.discard"
	typeTrailExport       = "trail.export"
	typeProjectList       = "project.list"
	typeProjectSet        = "project.set"
	typeProjectAddApp     = "project.addApp"
	typeAgentStatus       = "agent.status"
	typeAgentAsk          = "agent.ask"
	typeAgentStop         = "agent.stop"
	typeAgentPageResult   = "agent.pageResult"
	// Messages the host starts.
	typeAgentPage     = "agent.page"
	typeAgentProgress = "agent.progress"
	typeAgentDone     = "agent.done"
)

// A recordingDoor serves the recording over one native-messaging
// connection, and routes the extension's answers to the agent's page
// requests waiting for them.
type recordingDoor struct {
	svc     *recording.Service
	log     *slog.Logger
	answers *answers[recording.PageAnswer]
}

func registerRecording(srv *nativemsg.Server, s *nativeSession) *recordingDoor {
	if s.Secrets == nil {
		s.Secrets = &secretFilter{}
	}
	svc := recording.New(recording.Options{Config: s.Config, Log: s.Log, Secrets: filterSecrets{s.Secrets},
		Getenv: s.Getenv, Environ: s.Environ, LoadConfig: s.LoadConfig, Export: exportTrail,
		AgentMaxActions: config.DefaultAgent().MaxActions, AgentMaxCalls: config.DefaultAgent().MaxCalls})
	d := &recordingDoor{svc: svc, log: s.Log,
		answers: newAnswers("an agent.pageResult", recording.PageAnswer{Reason: "failed", Error: "the extension's answer could not be read"}, s.Log, nil)}
	srv.Handle(typeRecordStart, serveOp(svc.Start))
	srv.Handle(typeRecordInteraction, serveOp(fromExtension(svc.Interaction)))
	srv.Handle(typeRecordResume, serveOp(svc.Resume))
	srv.Handle(typeRecordStatus, serveOp(svc.Status))
	srv.Handle(typeRecordStop, serveOp(svc.Stop))
	srv.Handle(typeRecordChanges, serveOp(svc.Changes))
	srv.Handle(typeRecordReview, serveOp(svc.Review))
	srv.Handle(typeRecordChoose, serveOp(svc.Choose))
	srv.Handle(typeRecordSave, serveOp(svc.Save))
	srv.Handle(typeRecordDiscard, serveOp(svc.Discard))
	srv.Handle(typeTrailExport, serveOp(svc.Export))
	srv.Handle(typeProjectList, serveOp(svc.ProjectList))
	srv.Handle(typeProjectSet, serveOp(svc.ProjectSet))
	srv.Handle(typeProjectAddApp, serveOp(svc.ProjectAddApp))
	srv.Handle(typeAgentStatus, serveOp(svc.AgentStatus))
	srv.Handle(typeAgentAsk, d.ask)
	srv.Handle(typeAgentStop, serveOp(svc.StopAgent))
	srv.Handle(typeAgentPageResult, d.answers.handle)
	return d
}

// checkDatabase reads the database whole as the host starts
// (host/PROTOCOL.md, A damaged database).
func (d *recordingDoor) checkDatabase(ctx context.Context) { d.svc.CheckDatabase(ctx) }

// close releases what the service holds.
func (d *recordingDoor) close() { d.svc.Close() }

// serveOp is the handler of one operation: the request's fields decoded
// into its typed request (a field of the wrong type is error 5), and its
// answer sent as the reply's fields.
func serveOp[In, Out any](op func(context.Context, In) (Out, error)) nativemsg.Handler {
	return func(ctx context.Context, req *nativemsg.Request) (nativemsg.Reply, error) {
		var in In
		if err := req.Decode(&in); err != nil {
			return nativemsg.Reply{}, err
		}
		out, err := op(ctx, in)
		if err != nil {
			return nativemsg.Reply{}, protocolError(err)
		}
		return nativemsg.Reply{Body: out}, nil
	}
}

// fromExtension is the Interaction operation as the extension reaches it:
// an interaction that names an outside agent (client) is refused, for only
// the host's own doors that performed a call know who made it
// (host/PROTOCOL.md, record.interaction).
func fromExtension(op func(context.Context, recording.InteractionIn) (recording.InteractionOut, error)) func(context.Context, recording.InteractionIn) (recording.InteractionOut, error) {
	return func(ctx context.Context, in recording.InteractionIn) (recording.InteractionOut, error) {
		var claims struct {
			Client *string `json:"client"`
		}
		if json.Unmarshal(in.Interaction, &claims) == nil && claims.Client != nil {
			return recording.InteractionOut{}, &recording.Error{Code: recording.Invalid,
				Message: "interaction.client is set by the host's own doors (host mcp), never by the extension: send the interaction without it; nothing was stored"}
		}
		return op(ctx, in)
	}
}

// protocolError gives a recording error its protocol code; any other
// error is the host's own failure (error 6).
func protocolError(err error) error {
	var re *recording.Error
	if !errors.As(err, &re) {
		return err
	}
	code := nativemsg.CodeInternal
	switch re.Code {
	case recording.Invalid:
		code = nativemsg.CodeBadRequest
	case recording.Damaged:
		code = nativemsg.CodeDatabaseDamaged
	}
	return &nativemsg.Error{Code: code, Message: re.Message}
}

// ask starts the agent on a goal, in the tab of the connection that asked.
func (d *recordingDoor) ask(ctx context.Context, req *nativemsg.Request) (nativemsg.Reply, error) {
	var in recording.AskIn
	if err := req.Decode(&in); err != nil {
		return nativemsg.Reply{}, err
	}
	in.Tab = &nativeTab{d: d, conn: req.Conn}
	out, err := d.svc.AskAgent(ctx, in)
	if err != nil {
		return nativemsg.Reply{}, protocolError(err)
	}
	return nativemsg.Reply{Body: out}, nil
}

// A nativeTab is the recorded tab of one connection: each page request is
// an agent.page message, answered by an agent.pageResult of its id.
type nativeTab struct {
	d    *recordingDoor
	conn *nativemsg.Conn
}

func (t *nativeTab) Page(ctx context.Context, req recording.PageRequest) (recording.PageAnswer, error) {
	return t.d.answers.ask(ctx, t.conn, typeAgentPage, req)
}

func (t *nativeTab) Progress(p recording.AgentProgress) {
	_, _ = t.conn.Notify(typeAgentProgress, p)
}

func (t *nativeTab) Done(done recording.AgentDone) error {
	_, err := t.conn.Notify(typeAgentDone, done)
	return err
}

// filterSecrets is the secret filter as the recording service uses it.
type filterSecrets struct{ f *secretFilter }

func (s filterSecrets) Redact(b []byte) []byte { return s.f.database(b) }

func (s filterSecrets) Learn(values map[string]string, known map[string]bool, log *slog.Logger) {
	s.f.learn(values, known, log)
}

// exportTrail is trail.export's writing: the plan of `host export`
// (planExport), carried out unless the file was edited by hand.
func exportTrail(ctx context.Context, db *storage.DB, slug, dir string, secretValues []string) (string, bool, error) {
	plan, err := planExport(ctx, db, slug, dir, secretValues)
	var he *handEditedError
	switch {
	case errors.As(err, &he), errors.As(err, new(*trail.SecretInTrailError)):
		return "", false, &recording.Error{Code: recording.Invalid, Message: err.Error()}
	case err != nil:
		return "", false, recording.StorageError(err)
	}
	if !plan.unchanged {
		if err := os.MkdirAll(dir, trailsDirMode); err != nil {
			return "", false, &recording.Error{Code: recording.Invalid, Message: fmt.Sprintf("creating %s: %v", dir, err)}
		}
		if err := plan.write(); errors.Is(err, errExportChanged) {
			return "", false, &recording.Error{Code: recording.Invalid, Message: err.Error()}
		} else if err != nil {
			return "", false, fmt.Errorf("exporting: %w", err)
		}
	}
	return plan.path, plan.unchanged, nil
}
