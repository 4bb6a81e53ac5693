package recording

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/trailpin/trailpin/agent"
	"github.com/trailpin/trailpin/host/config"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/steps"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/storage"
)

// Limits on what record.save accepts from the popup.
const (
	maxTrailTitleRunes = 200
	maxIntentRunes     = 500
)

// untitled is the suggested title of a recording whose first page had none.
const untitled = "Untitled recording"

// A built recording: the steps of a session and where it is saved to.
type built struct {
	sess    storage.Session
	trail   *steps.BuiltTrail
	project *config.Project
	projRef *ProjectRef
	app     *AppRef
	origin  string
}

// build turns the session's stored interactions, and the screen record.stop
// sent, into steps.
func (r *Service) build(ctx context.Context, db *storage.DB, sess storage.Session, final *screen.Screen) (*built, error) {
	b, err := r.prepare(sess)
	if err != nil {
		return nil, err
	}
	recs, err := r.storedInteractions(ctx, db, sess.ID)
	if err != nil {
		return nil, err
	}
	b.trail, err = steps.BuildSteps(recs, final, b.buildOptions(r))
	var fe *trail.ForeignOriginError
	switch {
	case errors.Is(err, steps.ErrNoSteps):
		return nil, invalid("%v", err)
	case errors.As(err, &fe):
		return nil, invalid("%v: record one app per trail", err)
	case err != nil:
		return nil, fmt.Errorf("building the steps: %w", err)
	}
	return b, nil
}

// prepare finds the session's project and app.
func (r *Service) prepare(sess storage.Session) (*built, error) {
	b := &built{sess: sess}
	var err error
	if sess.ProjectDir != "" {
		p, lerr := config.LoadProject(sess.ProjectDir)
		if lerr != nil {
			return nil, invalid("the recording's project: %v", lerr)
		}
		r.learnSecrets(p)
		b.project, b.projRef = p, r.projectRefFor(p.Dir)
	} else if b.project, b.projRef, err = r.currentProject(); err != nil {
		return nil, err
	}
	if b.origin, err = config.OriginOf(sess.StartURL); err != nil {
		return nil, invalid("the recording's start URL: %v", err)
	}
	if b.project != nil {
		b.app = appFor(b.project, b.origin)
	}
	return b, nil
}

// storedInteractions reads a session's interactions with their screens.
func (r *Service) storedInteractions(ctx context.Context, db *storage.DB, id string) ([]steps.RecordedInteraction, error) {
	list, err := db.Interactions(ctx, id)
	if err != nil {
		return nil, err
	}
	spans := r.spansOf(ctx, db, id)
	screens := map[storage.ScreenHash]*screen.Screen{}
	recs := make([]steps.RecordedInteraction, 0, len(list))
	for _, in := range list {
		var rec steps.RecordedInteraction
		if err := json.Unmarshal(in.Payload, &rec.Interaction); err != nil {
			return nil, fmt.Errorf("interaction %d as stored does not read back: %w", in.Seq, err)
		}
		r.unredact(&rec.Interaction)
		if rec.Interaction.Client == "" {
			rec.Interaction.Client = clientOf(spans, rec.Interaction.Tab, rec.Interaction.Seq)
		}
		if rec.Interaction.Secret != "" {
			if name := secretOf(spans, rec.Interaction.Tab, rec.Interaction.Seq); name != "" {
				rec.Interaction.Secret = name
			}
		}
		if !in.Screen.IsZero() {
			s, ok := screens[in.Screen]
			if !ok {
				if s, err = db.Screen(ctx, in.Screen); err != nil {
					return nil, err
				}
				screens[in.Screen] = s
			}
			rec.Before = s
		}
		recs = append(recs, rec)
	}
	return recs, nil
}

// buildOptions are the options steps are built with: the app's base URL,
// and the project's secret values, so that a configured secret's value
// typed into a field the page does not mark as secret is written as a
// reference too, and is never shown.
func (b *built) buildOptions(r *Service) steps.BuildOptions {
	base := b.origin
	if b.app != nil {
		base = b.app.BaseURL
	}
	var sensitive []string
	if b.project != nil {
		sensitive = r.learnSecrets(b.project)
	}
	var trusted []string
	if b.project != nil && b.app != nil {
		trusted = b.project.Origins[b.app.Name]
	}
	return steps.BuildOptions{BaseURL: base, Sensitive: sensitive, Origins: trusted}
}

// trailOf makes the trail file of a built recording.
func (b *built) trailOf(title string) *trail.Trail {
	t := &trail.Trail{Version: trail.TrailVersion, Title: title, Viewport: b.sess.Viewport,
		Locale: b.sess.Locale, TimeZone: b.sess.TimeZone, Start: b.trail.Start, Steps: slices.Clone(b.trail.Steps)}
	// A recording the agent made belongs to its goal as the trail says it
	// (edited intents included) and to this agent configuration; an
	// outside agent's (Client) belongs to none, as a person's.
	for i, s := range t.Steps {
		if s.By == trail.ByAgent && s.Client == "" && len(s.Actions) > 0 {
			t.Steps[i].Key = trail.StepKey(s, agent.ConfigKey())
		}
	}
	if b.app != nil {
		t.App = b.app.Name
	}
	return t
}

// suggestedTitle is the title of the page the recording started on.
func suggestedTitle(sess storage.Session) string {
	t := strings.Join(strings.Fields(sess.Title), " ")
	if t == "" {
		return untitled
	}
	if utf8.RuneCountInString(t) > maxTrailTitleRunes {
		t = string([]rune(t)[:maxTrailTitleRunes])
	}
	return t
}

// StopIn stops a recording (record.stop).
type StopIn struct {
	Session string `json:"session"`
	// Screen is the page as the recording ended, in the page model's wire
	// form (docs/screen-schema.md); optional.
	Screen json.RawMessage `json:"screen"`
}

// A PreviewAction is an action of a step as the popup shows it.
type PreviewAction struct {
	Kind     string `json:"kind"`
	Selector string `json:"selector"`
	Text     string `json:"text"`
}

// A PreviewEnd is a step's end state as the popup shows it.
type PreviewEnd struct {
	URL   string   `json:"url"`
	Shows []string `json:"shows"`
}

// A PreviewStep is a built step as the popup shows it.
type PreviewStep struct {
	Intent string `json:"intent"`
	// By is agent for a goal the agent performed (trail's by:).
	By      string          `json:"by,omitempty"`
	Act     string          `json:"act,omitempty"`
	Actions []PreviewAction `json:"actions"`
	End     *PreviewEnd     `json:"end,omitempty"`
}

// StopOut is the recording's steps as they would be saved, for the popup
// to review.
type StopOut struct {
	Session      string        `json:"session"`
	Title        string        `json:"title"`
	Start        string        `json:"start"`
	Steps        []PreviewStep `json:"steps"`
	Secrets      []string      `json:"secrets"`
	Notes        []string      `json:"notes"`
	App          *AppRef       `json:"app"`
	Project      *ProjectRef   `json:"project"`
	NeedsProject bool          `json:"needsProject"`
	NeedsApp     bool          `json:"needsApp"`
	YAML         string        `json:"yaml"`
}

// actionText is what an action types, presses, chooses or checks, as the
// trail holds it.
func actionText(a trail.Action) string {
	switch a := a.(type) {
	case trail.Navigate:
		return a.To
	case trail.Tap:
		if a.Count > 1 {
			return strconv.Itoa(a.Count) + " clicks"
		}
	case trail.TypeText:
		return a.Text
	case trail.Set:
		return a.Value
	case trail.Press:
		return strings.Join(append(modifierNames(a.Modifiers), a.Key), "+")
	case trail.SelectOption:
		return strings.Join(a.Options, ", ")
	case trail.Upload:
		return strings.Join(a.Files, ", ")
	case trail.Dialog:
		if a.Accept {
			return "accept " + a.PromptText
		}
		return "dismiss"
	case trail.SwitchTab:
		return a.URL + a.Title
	case trail.AssertNotVisible:
		return a.Text
	case trail.AssertValue:
		return a.Value
	case trail.AssertState:
		return a.State + "=" + a.Want
	case trail.AssertURL:
		if a.Pattern != "" {
			return "pattern:" + a.Pattern
		}
		return a.URL
	}
	return ""
}

func modifierNames(ms []trail.Modifier) []string {
	out := make([]string, 0, len(ms)+1)
	for _, m := range ms {
		out = append(out, string(m))
	}
	return out
}

func preview(steps []trail.Step) []PreviewStep {
	out := make([]PreviewStep, 0, len(steps))
	for _, s := range steps {
		ps := PreviewStep{Intent: s.Intent, By: s.By, Act: s.Act, Actions: []PreviewAction{}}
		for _, a := range s.Actions {
			pa := PreviewAction{Kind: string(a.Kind()), Text: strings.TrimSpace(actionText(a))}
			if sel, ok := trail.ActionSelector(a); ok {
				pa.Selector = sel.String()
			}
			ps.Actions = append(ps.Actions, pa)
		}
		if s.End != nil {
			ps.End = &PreviewEnd{URL: s.End.URL, Shows: []string{}}
			for _, sel := range s.End.Shows {
				ps.End.Shows = append(ps.End.Shows, sel.String())
			}
		}
		out = append(out, ps)
	}
	return out
}

// Stop stops a recording and builds its steps, for the popup to review;
// it stops a goal the agent performs in it too.
func (r *Service) Stop(ctx context.Context, in StopIn) (_ StopOut, err error) {
	defer r.explainDamage(&err)
	if err := checkSessionID(in.Session); err != nil {
		return StopOut{}, err
	}
	// A goal the agent performs ends with the recording.
	r.agent.cancelFor(in.Session)
	var final *screen.Screen
	if present(in.Screen) {
		var err error
		if final, err = decodeScreen(in.Screen, "the final screen"); err != nil {
			return StopOut{}, err
		}
	}
	db, err := r.database(ctx)
	if err != nil {
		return StopOut{}, err
	}
	sess, st, err := r.sessionState(ctx, db, in.Session)
	if err != nil {
		return StopOut{}, err
	}
	b, err := r.build(ctx, db, sess, final)
	if err != nil {
		return StopOut{}, err
	}
	r.mu.Lock()
	st.stopped, st.final, st.review = true, final, nil
	r.mu.Unlock()
	title := suggestedTitle(sess)
	var content []byte
	if b.app != nil {
		if content, err = trail.MarshalTrail(b.trailOf(title)); err != nil {
			return StopOut{}, fmt.Errorf("writing the trail: %w", err)
		}
	}
	out := StopOut{Session: sess.ID, Title: title, Start: b.trail.Start, Steps: preview(b.trail.Steps),
		Secrets: append([]string{}, b.trail.Secrets...), Notes: append([]string{}, b.trail.Notes...),
		App: b.app, Project: b.projRef, NeedsProject: b.project == nil, NeedsApp: b.project != nil && b.app == nil,
		YAML: string(content)}
	r.log.Info("recording stopped", "session", sess.ID, "interactions", sess.Interactions, "steps", len(out.Steps), "secrets", len(out.Secrets))
	return out, nil
}

// SaveIn saves a stopped recording as a trail (record.save), with the
// person's edits.
type SaveIn struct {
	Session string            `json:"session"`
	Title   string            `json:"title"`
	Secrets map[string]string `json:"secrets"`
	Intents map[string]string `json:"intents"`
	// Choices are the options the person chose in the review
	// (record.review); a reviewed step without one keeps the review's pick.
	Choices []ReviewChoice `json:"choices"`
}

// SaveOut is the trail version saved.
type SaveOut struct {
	Session string   `json:"session"`
	Trail   string   `json:"trail"`
	Slug    string   `json:"slug"`
	Version int      `json:"version"`
	Title   string   `json:"title"`
	App     string   `json:"app"`
	Secrets []string `json:"secrets"`
	// Changes are the selectors the review changed from the recorder's
	// choice, and why; empty when no review was made.
	Changes []ReviewChange `json:"changes"`
}

// oneLine checks a text the person edited: one line, not blank, not too long.
func oneLine(what, s string, maxRunes int) (string, error) {
	t := strings.TrimSpace(s)
	switch {
	case t == "":
		return "", invalid("%s is empty: write a few words", what)
	case strings.ContainsAny(t, "\r\n"):
		return "", invalid("%s has a line break: write it on one line", what)
	case !utf8.ValidString(t):
		return "", invalid("%s is not UTF-8 text", what)
	case utf8.RuneCountInString(t) > maxRunes:
		return "", invalid("%s is longer than %d characters: shorten it", what, maxRunes)
	}
	return t, nil
}

// applyEdits applies the popup's edits to the built steps: intents by index
// and secret renames.
func applyEdits(t *steps.BuiltTrail, intents, secrets map[string]string) ([]string, error) {
	keys := make([]string, 0, len(intents))
	for k := range intents {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		i, err := strconv.Atoi(k)
		if err != nil || i < 0 || i >= len(t.Steps) || strconv.Itoa(i) != k {
			return nil, invalid("intents: %q is not a step index: use \"0\" to \"%d\" from record.stop's steps", screen.Clip(k, 20), len(t.Steps)-1)
		}
		text, err := oneLine(fmt.Sprintf("the intent of step %d", i), intents[k], maxIntentRunes)
		if err != nil {
			return nil, err
		}
		s := &t.Steps[i]
		if s.Act != "" {
			s.Act = text
		}
		s.Intent = text
	}
	names := map[string]string{}
	for _, old := range t.Secrets {
		names[old] = old
	}
	for old, name := range secrets {
		if _, ok := names[old]; !ok {
			return nil, invalid("secrets: the recording needs no secret %q (it needs %s)", screen.Clip(old, 40), strings.Join(t.Secrets, ", "))
		}
		if !config.IsSecretName(name) || len(name) > 64 {
			return nil, invalid("secrets: new name %q for %s: use letters, digits, '_', '-' and '.'", screen.Clip(name, 40), old)
		}
		names[old] = name
	}
	// Every place the reference sits, the goal the agent was asked
	// included, so that replay asks for the secret by its new name.
	renamed := &trail.Trail{Steps: t.Steps}
	trail.RenameRefs(renamed, trail.RefSecret, names)
	t.Steps = renamed.Steps
	var out []string
	for _, ref := range (&trail.Trail{Steps: t.Steps}).References() {
		if ref.Kind == trail.RefSecret {
			out = append(out, ref.Name)
		}
	}
	sort.Strings(out)
	return out, nil
}

// Save saves a stopped recording as a trail, or as a new version of the
// trail saved from it before.
func (r *Service) Save(ctx context.Context, in SaveIn) (_ SaveOut, err error) {
	defer r.explainDamage(&err)
	if err := checkSessionID(in.Session); err != nil {
		return SaveOut{}, err
	}
	title, err := oneLine("title", in.Title, maxTrailTitleRunes)
	if err != nil {
		return SaveOut{}, err
	}
	db, err := r.database(ctx)
	if err != nil {
		return SaveOut{}, err
	}
	sess, st, err := r.sessionState(ctx, db, in.Session)
	if err != nil {
		return SaveOut{}, err
	}
	r.mu.Lock()
	stopped, final, rv := st.stopped, st.final, st.review
	r.mu.Unlock()
	if !stopped {
		return SaveOut{}, invalid("session %s was not stopped by this host process: send record.stop (again, after a reconnect) before record.save", sess.ID)
	}
	if rv == nil && len(in.Choices) > 0 {
		return SaveOut{}, invalid("choices: the recording was not reviewed since it stopped: send record.review before record.save with choices")
	}
	b, err := r.build(ctx, db, sess, final)
	if err != nil {
		return SaveOut{}, err
	}
	switch {
	case b.project == nil:
		return SaveOut{}, invalid("no project is chosen for this recording: send project.set with the repository folder, then record.save again")
	case b.app == nil:
		return SaveOut{}, invalid("no app of %s has the origin %s: send project.addApp with a name for it, then record.save again", b.project.File, b.origin)
	}
	secrets, err := applyEdits(b.trail, in.Intents, in.Secrets)
	if err != nil {
		return SaveOut{}, err
	}
	changes := []ReviewChange{}
	if rv != nil {
		if changes, err = applyReview(b.trail, rv.out, rv.menus, in.Choices); err != nil {
			return SaveOut{}, err
		}
	}
	t := b.trailOf(title)
	content, err := trail.MarshalTrail(t)
	if err != nil {
		return SaveOut{}, fmt.Errorf("writing the trail: %w", err)
	}
	if _, err := trail.LoadTrail("recording.trail.yaml", content); err != nil {
		return SaveOut{}, fmt.Errorf("the saved trail would not load back: %w", err)
	}
	if err := db.SetSessionProject(ctx, sess.ID, b.project.Dir, b.app.Name); err != nil {
		return SaveOut{}, StorageError(err)
	}
	v, err := r.saveVersion(ctx, db, sess.ID, title, b.app.Name, content)
	if err != nil {
		return SaveOut{}, StorageError(err)
	}
	r.log.Info("trail saved", "session", sess.ID, "trail", v.Slug, "version", v.Version, "steps", len(t.Steps), "reviewChanges", len(changes))
	return SaveOut{Session: sess.ID, Trail: v.Slug, Slug: v.Slug, Version: v.Version,
		Title: v.Title, App: v.App, Secrets: append([]string{}, secrets...), Changes: changes}, nil
}

// saveVersion saves content as a new trail, or, when a trail was saved from
// the session before, as its next version; the same content saved again
// returns the version it is.
func (r *Service) saveVersion(ctx context.Context, db *storage.DB, session, title, app string, content []byte) (storage.TrailVersion, error) {
	list, err := db.Trails(ctx)
	if err != nil {
		return storage.TrailVersion{}, err
	}
	for _, v := range list {
		if v.SessionID != session {
			continue
		}
		latest, err := db.Trail(ctx, v.Slug)
		if err != nil {
			return storage.TrailVersion{}, err
		}
		if bytes.Equal(latest.Content, content) && latest.Title == title {
			return latest, nil
		}
		return db.SaveTrail(ctx, storage.TrailInput{Slug: v.Slug, Title: title, App: app, Content: content, SessionID: session})
	}
	slug := trail.Slug(title)
	if !storage.ValidSlug(slug) {
		slug = "trail"
	}
	return db.SaveTrail(ctx, storage.TrailInput{Slug: slug, New: true, Title: title, App: app, Content: content, SessionID: session})
}

// Discard deletes an unsaved recording.
func (r *Service) Discard(ctx context.Context, in SessionIn) (_ DiscardOut, err error) {
	defer r.explainDamage(&err)
	if err := checkSessionID(in.Session); err != nil {
		return DiscardOut{}, err
	}
	db, err := r.database(ctx)
	if err != nil {
		return DiscardOut{}, err
	}
	deleted, err := db.DiscardSession(ctx, in.Session)
	if err != nil {
		return DiscardOut{}, StorageError(err)
	}
	r.forget(in.Session)
	r.log.Info("recording discarded", "session", in.Session, "deleted", deleted)
	return DiscardOut{Discarded: deleted, Session: in.Session}, nil
}

// DiscardOut says whether a recording was deleted (false: it was gone).
type DiscardOut struct {
	Discarded bool   `json:"discarded"`
	Session   string `json:"session"`
}

// ExportIn writes a saved trail into a project's trails folder
// (trail.export).
type ExportIn struct {
	Trail   string `json:"trail"`
	Project string `json:"project"`
}

// Export writes a saved trail into its project's trails folder.
func (r *Service) Export(ctx context.Context, in ExportIn) (_ ExportOut, err error) {
	defer r.explainDamage(&err)
	if strings.TrimSpace(in.Trail) == "" {
		return ExportOut{}, invalid("trail is missing: send the trail record.save returned")
	}
	db, err := r.database(ctx)
	if err != nil {
		return ExportOut{}, err
	}
	v, err := db.Trail(ctx, in.Trail)
	if err != nil {
		return ExportOut{}, StorageError(err)
	}
	var p *config.Project
	switch {
	case in.Project != "":
		if !filepath.IsAbs(in.Project) {
			return ExportOut{}, invalid("project %q is not an absolute path", in.Project)
		}
		if p, err = config.LoadProject(in.Project); err != nil {
			return ExportOut{}, invalid("%v", err)
		}
	case v.SessionID != "":
		if sess, err := db.Session(ctx, v.SessionID); err == nil && sess.ProjectDir != "" {
			if p, err = config.LoadProject(sess.ProjectDir); err != nil {
				return ExportOut{}, invalid("the trail's project: %v", err)
			}
		}
	}
	if p == nil {
		if p, _, err = r.currentProject(); err != nil {
			return ExportOut{}, err
		}
		if p == nil {
			return ExportOut{}, invalid("no project to export into: send project.set with the repository folder, or name it in project")
		}
	}
	if r.opts.Export == nil {
		return ExportOut{}, errors.New("this host cannot export trails")
	}
	path, unchanged, err := r.opts.Export(ctx, db, v.Slug, p.TrailsPath(), r.learnSecrets(p))
	if err != nil {
		return ExportOut{}, err
	}
	r.log.Info("trail exported", "trail", v.Slug, "version", v.Version, "unchanged", unchanged)
	return ExportOut{Path: path, Trail: v.Slug, Unchanged: unchanged, Version: v.Version}, nil
}

// ExportOut is the file a trail was exported to; Unchanged is true when it
// held those bytes already.
type ExportOut struct {
	Path      string `json:"path"`
	Trail     string `json:"trail"`
	Unchanged bool   `json:"unchanged"`
	Version   int    `json:"version"`
}

// unredact turns a typed value that storage redacted (a configured secret's
// value, stored as its ${secret:NAME}) back into what the extension sends for
// a secret field, so the trail references the secret instead of typing the
// reference's text.
func (r *Service) unredact(it *steps.Interaction) {
	if it.Kind != steps.InteractType || it.Secret != "" || !strings.HasPrefix(it.Value, "${secret:") {
		return
	}
	refs, err := trail.ParseRefs(it.Value)
	if err != nil || len(refs) != 1 || refs[0].String() != it.Value {
		return
	}
	r.mu.Lock()
	_, known := r.secretValues[refs[0].Name]
	r.mu.Unlock()
	if known && !strings.HasPrefix(refs[0].Name, "credentials.") {
		it.Secret, it.Value = refs[0].Name, ""
	}
}
