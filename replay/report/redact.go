package report

import "reflect"

// redacted returns a deep copy of v in which the redactor has been applied
// to every string, whatever field holds it (names, texts, URLs, enum
// values, map keys and values). Byte slices (screenshots) are shared, not
// copied. Writers call it first, so that no field added to a result later
// can carry a secret past a report.
func redacted[T any](v T, r Redactor) T {
	if r == nil {
		return v
	}
	src := reflect.ValueOf(&v).Elem()
	dst := reflect.New(src.Type()).Elem()
	redactValue(dst, src, r)
	return dst.Interface().(T)
}

func redactValue(dst, src reflect.Value, r Redactor) {
	switch src.Kind() {
	case reflect.String:
		dst.SetString(r(src.String()))
	case reflect.Struct:
		// Copy the whole value first: a struct with unexported fields
		// (time.Time) keeps them, and the exported ones are redacted below.
		dst.Set(src)
		for i := range src.NumField() {
			if dst.Field(i).CanSet() {
				redactValue(dst.Field(i), src.Field(i), r)
			}
		}
	case reflect.Slice:
		if src.IsNil() {
			return
		}
		if src.Type().Elem().Kind() == reflect.Uint8 {
			dst.Set(src)
			return
		}
		dst.Set(reflect.MakeSlice(src.Type(), src.Len(), src.Len()))
		for i := range src.Len() {
			redactValue(dst.Index(i), src.Index(i), r)
		}
	case reflect.Pointer:
		if src.IsNil() {
			return
		}
		dst.Set(reflect.New(src.Type().Elem()))
		redactValue(dst.Elem(), src.Elem(), r)
	case reflect.Map:
		if src.IsNil() {
			return
		}
		dst.Set(reflect.MakeMapWithSize(src.Type(), src.Len()))
		iter := src.MapRange()
		for iter.Next() {
			k := reflect.New(src.Type().Key()).Elem()
			redactValue(k, iter.Key(), r)
			val := reflect.New(src.Type().Elem()).Elem()
			redactValue(val, iter.Value(), r)
			dst.SetMapIndex(k, val)
		}
	default:
		dst.Set(src)
	}
}
