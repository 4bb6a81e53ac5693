package selector

import (
	"regexp"
	"strings"
	"unicode"
)

// Ids and test ids that a framework or a build made up change between builds,
// page loads or data sets, so the generator never writes them into a
// selector. looksGenerated is the heuristic; it errs towards "generated",
// because passing over a stable id costs a slightly longer selector while
// trusting a generated one costs a broken trail.
//
// An id looks generated when any of these holds:
//   - it is longer than maxStableIDLength;
//   - it carries a React useId (":r3:", ":R1a6:", "«r0»", "_r_1_");
//   - it contains a UUID;
//   - it starts the way a framework's counter ids do (ember123,
//     react-select-5-input, headlessui-…, radix-…, mat-input-0, ui-id-4 …);
//   - it has a run of minDigitRun or more digits (timestamps, database keys);
//   - digits make up at least half of its letters and digits, with at least
//     minCountedDigits of them (p-123, 12ab34);
//   - one of its parts (split at - _ : .) is a hex hash of at least
//     minHexHashLength characters with both digits and letters (8f3a2c), or
//     mixes letters and digits back and forth (4kx9q2, 1x2y3z);
//   - a long id changes character class very often (x7Fq9LmZ2), the way
//     Playwright's generator spots GUID-like ids;
//   - it is random bytes written in base64: base64 letters only, with the
//     padding = at its end or a + or / inside (Swagger UI's tab panels:
//     3aadtPg=, 2hd+t6c=), which words and names never have.
func LooksGenerated(id string) bool {
	if id == "" {
		return false
	}
	if len(id) > maxStableIDLength {
		return true
	}
	if reactUseID.MatchString(id) || uuidPattern.MatchString(id) || frameworkCounterID.MatchString(id) || isBase64Bytes(id) {
		return true
	}
	digits, alnum, run, longestRun := 0, 0, 0, 0
	for _, r := range id {
		if r >= '0' && r <= '9' {
			digits++
			run++
			longestRun = max(longestRun, run)
		} else {
			run = 0
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			alnum++
		}
	}
	if longestRun >= minDigitRun {
		return true
	}
	if digits >= minCountedDigits && 2*digits >= alnum {
		return true
	}
	for _, part := range strings.FieldsFunc(id, func(r rune) bool { return strings.ContainsRune("-_:.", r) }) {
		if isHexHash(part) || letterDigitSwaps(part) >= minSwapsInPart && len(part) >= minMixedPartLength {
			return true
		}
	}
	changes := classChanges(id)
	return len(id) >= minLengthForClassChanges && changes >= minClassChanges && 4*changes >= len(id)
}

const (
	// minBase64ID: four base64 characters carry three bytes; "a=b" is not
	// one.
	minBase64ID = 4
	// maxStableIDLength: ids people write name a thing in a few words.
	maxStableIDLength = 64
	// minDigitRun: four digits in a row are a year, a timestamp or a key
	// from a database, all of which differ between environments.
	minDigitRun = 4
	// minCountedDigits: with fewer digits, "half digits" would flag step-2.
	minCountedDigits = 3
	// minHexHashLength: shorter hex words are often English (cafe, bead).
	minHexHashLength = 6
	// minSwapsInPart and minMixedPartLength: h264 or mp3 swap once; a hash
	// like 4kx9q2 swaps four times.
	minSwapsInPart     = 3
	minMixedPartLength = 5
	// minLengthForClassChanges: short ids have too few characters for a
	// ratio to mean anything.
	minLengthForClassChanges = 8
	// minClassChanges: a word with a number and a suffix (h1-title) changes
	// class twice; ids that change four times or more are made up.
	minClassChanges = 4
)

var (
	reactUseID         = regexp.MustCompile(`:[rR][0-9a-zA-Z]*:|«[rR]?[0-9a-zA-Z]*»|(^|[^0-9a-zA-Z])_[rR]_[0-9a-zA-Z]*_`)
	uuidPattern        = regexp.MustCompile(`(?i)[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	frameworkCounterID = regexp.MustCompile(`^(?:` + strings.Join([]string{
		`ember\d+`,                      // Ember views
		`ext-(?:gen|comp|element)-?\d+`, // Ext JS
		`gwt-uid-\d+`,                   // GWT
		`j_id\w*\d`,                     // JSF
		`jQuery\d+`,                     // jQuery expandos
		`yui_[\w-]+`,                    // YUI
		`ui-id-\d+`,                     // jQuery UI
		`__BVID__\d+`,                   // BootstrapVue
		`pr_id_\d+`,                     // PrimeNG
		`react-select-\d+-`,             // react-select
		`react-aria\d*-`,                // React Aria
		`downshift-\d+`,                 // Downshift
		`headlessui-`,                   // Headless UI
		`radix-`,                        // Radix
		`mui-\d+`,                       // MUI
		`chakra-`,                       // Chakra UI
		`rc-[a-z]+-\d+`,                 // rc-components (Ant Design)
		`el-id-\d+`,                     // Element Plus
		`mat-[a-z-]+-\d+`,               // Angular Material
		`cdk-[a-z-]+-\d+`,               // Angular CDK
		`ng-[a-z]+-c?\d+`,               // Angular
		`select2-`,                      // Select2
		`tippy-\d+`,                     // Tippy
		`vaadin-[a-z-]+-\d+`,            // Vaadin
		`v-\d+`,                         // Vue counters
	}, "|") + `)`)
)

func isHexHash(part string) bool {
	if len(part) < minHexHashLength {
		return false
	}
	digits, letters := 0, 0
	for _, r := range part {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F':
			letters++
		default:
			return false
		}
	}
	return digits >= 2 && letters >= 1
}

// letterDigitSwaps counts the changes between letters and digits in part.
func letterDigitSwaps(part string) int {
	swaps, last := 0, 0 // 1 letter, 2 digit
	for _, r := range part {
		kind := 0
		switch {
		case r >= '0' && r <= '9':
			kind = 2
		case unicode.IsLetter(r):
			kind = 1
		}
		if kind != 0 && last != 0 && kind != last {
			swaps++
		}
		if kind != 0 {
			last = kind
		}
	}
	return swaps
}

// classChanges counts changes of character class (lower, upper, digit,
// other), not counting a capital followed by lower case (camelCase words) or
// the separators - and _.
func classChanges(id string) int {
	changes, last := 0, 0 // 1 lower, 2 upper, 3 digit, 4 other
	for _, r := range id {
		if r == '-' || r == '_' {
			continue
		}
		kind := 4
		switch {
		case r >= 'a' && r <= 'z':
			kind = 1
		case r >= 'A' && r <= 'Z':
			kind = 2
		case r >= '0' && r <= '9':
			kind = 3
		}
		if kind == 1 && last == 2 {
			last = kind
			continue
		}
		if last != 0 && kind != last {
			changes++
		}
		last = kind
	}
	return changes
}

// isBase64Bytes reports whether id reads as base64 bytes: letters, digits,
// + and / only, up to two = at the end (minBase64ID characters at least),
// and padding, or a + or / among digits and letters of both cases.
func isBase64Bytes(id string) bool {
	body := strings.TrimRight(id, "=")
	if len(id)-len(body) > 2 || len(id) < minBase64ID || body == "" {
		return false
	}
	var mark, digit, upper, lower bool
	for _, r := range body {
		switch {
		case r == '+' || r == '/':
			mark = true
		case r > unicode.MaxASCII || !unicode.IsLetter(r) && !unicode.IsDigit(r):
			return false
		}
		digit = digit || unicode.IsDigit(r)
		upper = upper || unicode.IsUpper(r)
		lower = lower || unicode.IsLower(r)
	}
	// Padding says base64; a + or / does when the rest looks random too
	// (docs/intro is a path).
	return len(body) < len(id) || mark && digit && upper && lower
}

// LooksCounted reports whether id reads as a name and a counter after a
// - or _ (sl-tab-2, theme_419): what a component library numbers its parts
// by in the order it made them, or what an app builds from a clock. Such an
// id changes when a part is added or the page loads again, yet a person may
// have written it too (step-2), so it is not refused: the generator passes
// it over when a selector without it names the element alone
// (costCountedID), and uses it before counting a position.
func LooksCounted(id string) bool {
	return countedID.MatchString(id)
}

var countedID = regexp.MustCompile(`^\pL[\pL\pN]*(?:[-_.:][\pL\pN]+)*?[-_]\pN+$`)
