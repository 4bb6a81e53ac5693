package trail

import (
	"fmt"
	"reflect"
)

// Equal reports whether t and u describe the same trail: the same keys and
// values, whatever file and lines they were read from (a Version of 0 counts
// as TrailVersion). An empty list or map
// equals a missing one. It is the equality of the round trip "every trail
// written loads back equal".
func (t *Trail) Equal(u *Trail) bool {
	if t == nil || u == nil {
		return t == u
	}
	return reflect.DeepEqual(comparableTrail(t).Interface(), comparableTrail(u).Interface())
}

// comparableTrail is t as Equal compares it: without positions, and with the
// version a trail built in memory leaves at 0 read as TrailVersion.
func comparableTrail(t *Trail) reflect.Value {
	c := *t
	if c.Version == 0 {
		c.Version = TrailVersion
	}
	return withoutPositions(reflect.ValueOf(c))
}

// withoutPositions returns a deep copy of v with every position cleared
// (Trail.File, Step.Line, End.Line, each action's Origin) and empty slices
// and maps made nil.
func withoutPositions(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		p := reflect.New(v.Type().Elem())
		p.Elem().Set(withoutPositions(v.Elem()))
		return p
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		out := reflect.New(v.Type()).Elem()
		out.Set(withoutPositions(v.Elem()))
		return out
	case reflect.Slice:
		if v.Len() == 0 {
			return reflect.Zero(v.Type())
		}
		out := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := range v.Len() {
			out.Index(i).Set(withoutPositions(v.Index(i)))
		}
		return out
	case reflect.Map:
		if v.Len() == 0 {
			return reflect.Zero(v.Type())
		}
		out := reflect.MakeMapWithSize(v.Type(), v.Len())
		for it := v.MapRange(); it.Next(); {
			out.SetMapIndex(it.Key(), withoutPositions(it.Value()))
		}
		return out
	case reflect.Struct:
		out := reflect.New(v.Type()).Elem()
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if isPositionField(v.Type(), f) {
				continue
			}
			out.Field(i).Set(withoutPositions(v.Field(i)))
		}
		return out
	}
	return v
}

var (
	originType = reflect.TypeFor[Origin]()
	trailType  = reflect.TypeFor[Trail]()
	stepType   = reflect.TypeFor[Step]()
	endType    = reflect.TypeFor[End]()
)

func isPositionField(owner reflect.Type, f reflect.StructField) bool {
	switch {
	case f.Type == originType:
		return true
	case owner == trailType && f.Name == "File":
		return true
	case (owner == stepType || owner == endType) && f.Name == "Line":
		return true
	}
	return false
}

// trailDifference names the first place where t and u differ, such as
// "Steps[1].Actions[0].(trail.TypeText).Text: "a\r\nb" != "a\nb"", or
// "" when they are equal. Positions are ignored as in Equal.
func trailDifference(t, u *Trail) string {
	return difference("", comparableTrail(t), comparableTrail(u))
}

func difference(path string, a, b reflect.Value) string {
	if a.IsValid() != b.IsValid() {
		return path + ": one is missing"
	}
	if !a.IsValid() {
		return ""
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return path + ": one is missing"
			}
			return ""
		}
		if a.Kind() == reflect.Interface && a.Elem().Type() != b.Elem().Type() {
			return fmt.Sprintf("%s: %s != %s", path, a.Elem().Type(), b.Elem().Type())
		}
		if a.Kind() == reflect.Interface {
			path += "(" + a.Elem().Type().String() + ")"
		}
		return difference(path, a.Elem(), b.Elem())
	case reflect.Struct:
		for i := range a.NumField() {
			if d := difference(path+"."+a.Type().Field(i).Name, a.Field(i), b.Field(i)); d != "" {
				return d
			}
		}
		return ""
	case reflect.Slice:
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s: %d items != %d items", path, a.Len(), b.Len())
		}
		for i := range a.Len() {
			if d := difference(fmt.Sprintf("%s[%d]", path, i), a.Index(i), b.Index(i)); d != "" {
				return d
			}
		}
		return ""
	}
	if !reflect.DeepEqual(a.Interface(), b.Interface()) {
		return fmt.Sprintf("%s: %#v != %#v", path, a.Interface(), b.Interface())
	}
	return ""
}
