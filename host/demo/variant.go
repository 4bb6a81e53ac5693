package demo

import (
	"errors"
	"fmt"
	"strings"
)

// Variant names. Normal is the shop as the example flows expect it; every
// other name mutates one thing, so that replay can be shown to notice it (or
// to rightly ignore it).
const (
	Normal           = ""
	PriceChanged     = "price-changed"
	ControlRemoved   = "control-removed"
	ServerError      = "server-error"
	Unauthorized     = "unauthorized"
	LoginRedirect    = "login-redirect"
	DuplicateButtons = "duplicate-buttons"
	CopyChanged      = "copy-changed"
	IDsChurned       = "ids-churned"
	Reordered        = "reordered"

	// The mutations below change the shop the way a release changes an app
	// under a recorded trail: the agent may heal some, others it must not.
	ApplyRenamed       = "apply-renamed"
	SignInRenamed      = "signin-renamed"
	DiscountMoved      = "discount-moved"
	ApplyWrapped       = "apply-wrapped"
	DiscountConfirm    = "discount-confirm"
	LoginReordered     = "login-reordered"
	LoginOptionalField = "login-optional-field"
	DiscountRefused    = "discount-refused"
)

// VariantHeader picks a variant for one request, overriding Options.Variant:
// a benchmark or a test can then use one server for several variants. The
// value is a variant name, or "normal" for the unchanged shop.
const VariantHeader = "X-Demo-Variant"

// normalName is how VariantHeader asks for the unchanged shop; an empty
// header value means "no override".
const normalName = "normal"

// ErrUnknownVariant is returned (wrapped) for a variant name the shop does
// not serve.
var ErrUnknownVariant = errors.New("unknown demo variant")

// A Variant describes one mutated version of the shop.
type Variant struct {
	// Name is what Options.Variant and VariantHeader take.
	Name string
	// Change says what differs from the normal shop.
	Change string
	// Expect says what a replay of the example flows (FLOWS.md) against this
	// variant must conclude.
	Expect string
	// Class is the failure class that replay must report, or "" when the
	// flows must still pass.
	Class string
}

// variants is the table doc.go describes; keep the two in step.
var variants = []Variant{
	{
		Name:   PriceChanged,
		Change: "iPhone 17 costs $829.00 instead of $799.00, everywhere it is shown (list, detail, cart, checkout, totals).",
		Expect: "The first assertion on an iPhone 17 price or a total fails, naming the expected and the actual value.",
		Class:  "app-bug",
	},
	{
		Name:   ControlRemoved,
		Change: "The Apply button of the discount form is gone (pressing Enter in the field still applies the code).",
		Expect: "The tap on Apply finds no target; the report lists the closest nodes.",
		Class:  "selector-drift",
	},
	{
		Name:   ServerError,
		Change: "Every /checkout request answers 500 Internal Server Error.",
		Expect: "The step that opens the checkout fails on the server error.",
		Class:  "env-issue",
	},
	{
		Name:   Unauthorized,
		Change: "Signing in works, but every page that needs a session answers 401 Unauthorized.",
		Expect: "The first step after signing in fails because the app refused the session.",
		Class:  "auth-blocked",
	},
	{
		Name:   LoginRedirect,
		Change: "Signing in works, but every page that needs a session redirects to /login?next=…&expired=1.",
		Expect: "The first step after signing in fails because the app sent the browser back to the login page.",
		Class:  "auth-blocked",
	},
	{
		Name:   DuplicateButtons,
		Change: "Every Add to cart button appears twice, identical (same text, same test id), in the product list and on product pages.",
		Expect: "The tap on Add to cart is ambiguous and clicks nothing.",
		Class:  "selector-drift",
	},
	{
		Name:   CopyChanged,
		Change: "Marketing copy changes: the banner, product descriptions, section headings that no flow asserts, help text and the footer.",
		Expect: "Every flow passes: no control name, price, count, status message or asserted heading changed.",
	},
	{
		Name:   IDsChurned,
		Change: "Generated ids (:r1:, ember101, …) take other values and the header and footer links come in another order; test ids stay.",
		Expect: "Every flow passes: selectors never rely on generated ids or on element order.",
	},
	{
		Name:   Reordered,
		Change: "Product lists (the catalogue and search results) come in reverse order.",
		Expect: "Every flow passes: a product is found by its name, not by its position.",
	},
	{
		Name:   ApplyRenamed,
		Change: "The discount form's Apply button reads Redeem.",
		Expect: "The tap on Apply finds no target after the code was typed: a stale recording, which an agent may heal.",
		Class:  "selector-drift",
	},
	{
		Name:   SignInRenamed,
		Change: "The sign-in form's Sign in button reads Log in.",
		Expect: "The tap on Sign in finds no target after the fields were filled: a stale recording, which an agent may heal.",
		Class:  "selector-drift",
	},
	{
		Name:   DiscountMoved,
		Change: "The discount section comes after the delivery form instead of before it.",
		Expect: "Every flow passes: a control is found by its role and name, not by where it is.",
	},
	{
		Name:   ApplyWrapped,
		Change: "The discount form's Apply button is wrapped in two more elements (a div and a span).",
		Expect: "Every flow passes: a control is found by its role and name, not by its ancestors.",
	},
	{
		Name:   DiscountConfirm,
		Change: "Applying a valid code asks first: the checkout shows \"Apply SUMMER to this order?\" with a Confirm discount button, and only that applies it.",
		Expect: "The check after the discount step fails: no SUMMER applied message. The step itself replays, so nothing hands off without a recorded end state.",
		Class:  "selector-drift",
	},
	{
		Name:   LoginReordered,
		Change: "The sign-in form asks for the password before the username.",
		Expect: "Every flow passes: fields are found by their labels, not by their order.",
	},
	{
		Name:   LoginOptionalField,
		Change: "The sign-in form has a new optional field, One-time code (optional), which the shop ignores when empty.",
		Expect: "Every flow passes: an optional field nobody fills changes nothing.",
	},
	{
		Name:   DiscountRefused,
		Change: "The discount form's Apply button reads Redeem (as in apply-renamed), and SUMMER is refused as expired: nothing comes off the total.",
		Expect: "The tap on Apply finds no target; however the step is healed, the check after it fails: the discount is not applied.",
		Class:  "selector-drift",
	},
}

// Variants returns the names of the mutated variants, in the order of the
// table in the package documentation. Normal ("") is not among them.
func Variants() []string {
	names := make([]string, len(variants))
	for i, v := range variants {
		names[i] = v.Name
	}
	return names
}

// VariantInfo describes the named variant; ok is false for an unknown name
// and for Normal.
func VariantInfo(name string) (v Variant, ok bool) {
	for _, v := range variants {
		if v.Name == name {
			return v, true
		}
	}
	return Variant{}, false
}

// ValidateVariant reports whether name can be given to New: Normal ("") or
// one of Variants. Call it on names from outside (a flag, a config file)
// before New, which panics on an unknown name.
func ValidateVariant(name string) error {
	if name == Normal {
		return nil
	}
	if _, ok := VariantInfo(name); ok {
		return nil
	}
	return fmt.Errorf("%w %q: use one of %s, or leave it empty for the normal shop",
		ErrUnknownVariant, name, strings.Join(Variants(), ", "))
}

// headerVariant resolves a VariantHeader value: an empty value keeps the
// server's variant.
func headerVariant(value, server string) (string, error) {
	switch value {
	case "":
		return server, nil
	case normalName:
		return Normal, nil
	}
	if err := ValidateVariant(value); err != nil {
		return "", err
	}
	return value, nil
}
