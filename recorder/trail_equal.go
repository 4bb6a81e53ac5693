package recorder

import "reflect"

// Equal reports whether t and u describe the same trail: the same keys and
// values, whatever file and lines they were read from. An empty list or map
// equals a missing one. It is the equality of the round trip "every trail
// written loads back equal".
func (t *Trail) Equal(u *Trail) bool {
	if t == nil || u == nil {
		return t == u
	}
	return reflect.DeepEqual(withoutPositions(reflect.ValueOf(*t)).Interface(),
		withoutPositions(reflect.ValueOf(*u)).Interface())
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
