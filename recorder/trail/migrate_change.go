package trail

import (
	"fmt"

	"go.yaml.in/yaml/v3"
)

// migrateRetry rewrites the bare number that version 1 files gave
// assertChange's retry (retry: 2000) as the budget the format has now
// (retry: {budgetMs: 2000}). A value that is no whole number is left for a
// person: what it meant cannot be told.
func (m *migration) migrateRetry(step int, kindNode, body *yaml.Node) {
	if kindNode.Value != string(ActionAssertChange) || body.Kind != yaml.MappingNode {
		return
	}
	_, v := mappingEntry(body, "retry")
	if v == nil || v.Kind != yaml.ScalarNode {
		return
	}
	note := MigrationNote{Line: kindNode.Line, Step: step, Action: kindNode.Value}
	if v.Tag != "!!int" || v.Value == "" || v.Value[0] == '-' || v.Value == "0" {
		note.Left = true
		note.Text = fmt.Sprintf("retry %q is not a budget in milliseconds: write retry: {budgetMs: N} by hand", v.Value)
		m.notes = append(m.notes, note)
		return
	}
	ms := v.Value
	*v = yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Style: yaml.FlowStyle, Line: v.Line, Column: v.Column,
		LineComment: v.LineComment, HeadComment: v.HeadComment, FootComment: v.FootComment,
		Content: []*yaml.Node{
			{Kind: yaml.ScalarNode, Tag: "!!str", Value: "budgetMs"},
			{Kind: yaml.ScalarNode, Tag: "!!int", Value: ms},
		}}
	note.Text = fmt.Sprintf("rewrote retry: %s as retry: {budgetMs: %s}", ms, ms)
	m.notes = append(m.notes, note)
	m.changed = true
}
