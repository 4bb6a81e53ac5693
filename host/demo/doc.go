// Package demo is the bundled demo app: a small web shop that Trailpin records
// and replays against. `host demo` serves it, the recording and replay e2e
// tests drive it, and the replay benchmarks measure against it.
//
// New returns an http.Handler for loopback use (httptest.NewServer, or a
// listener on 127.0.0.1). Every asset is embedded; the pages load nothing from
// elsewhere and need no build step. The shop is deterministic: the same
// catalogue (twelve products, among them "iPhone 17", "iPhone 18" and
// "iPhone 17 Silicone Case") on every start, state kept in memory per session
// cookie, order numbers counted per session from TP-1001, and no clock times
// or random values in any page. POST /reset forgets every session.
//
// The demo account is Username / Password. The password is never echoed into
// a page, a log line or a redirect.
//
// # Routes
//
//	GET  /                          redirect to /products
//	GET  /login                     sign-in form (?next=, ?expired=1, ?signed-out=1)
//	POST /login                     303 to next; wrong credentials: 401 and the form again
//	POST /logout                    forget the session, 303 to /login?signed-out=1
//	GET  /products                  catalogue; ?q= searches names and categories
//	GET  /products/{slug}           product page: specifications, quantity, shipping dialog
//	GET  /cart                      cart: quantities, remove, "Review order\n3 items"
//	POST /cart/add                  id, qty, return: add and go back to return
//	POST /cart/update               id, qty (a number, "dec" or "inc"; 0 removes)
//	POST /cart/remove               id
//	GET  /checkout                  summary, discount code, delivery form
//	POST /checkout/discount         code (SUMMER takes 10% off), or remove=1
//	POST /checkout/place            multipart: name, country, terms, gift_note file
//	GET  /orders                    the session's orders
//	GET  /orders/{n}                confirmation, with a "Printable receipt" link (target=_blank)
//	GET  /orders/{n}/receipt        printable receipt
//	GET  /help                      help, keyboard shortcuts (no session needed)
//	GET  /big?n=10000&delay=500     at most n elements, in rows of five; "Open target" in the
//	                                middle row; a Continue button appears after delay ms
//	                                (defaults n=1000, delay=500; no session needed)
//	POST /reset                     forget every session; 204
//	GET  /healthz                   "ok"
//	GET  /static/…                  app.css, app.js, big.js
//
// Every page under /products, /cart, /checkout and /orders needs a session; a
// GET without one is redirected to /login?next=… and comes back after it.
// Every form posts and redirects (303), so back and forward never resubmit.
// Pages are sent with Cache-Control: no-store, yet Chromium may still restore
// them from its back/forward cache without a load event; replay must wait for
// the URL and a complete document, not for a load.
//
// FLOWS.md writes out the example user flows (the example trails and the
// replay benchmark's flows) step by step, with the step at which each
// variant breaks them; trails_test.go walks them in Chromium. Trails embeds
// the same flows as trail files (trails/), with trailpin.yaml, for `host
// demo` to replay.
//
// # Variants
//
// Options.Variant (or the X-Demo-Variant request header, for one request)
// serves a mutated shop, so replay's failure reports can be tested against a
// known cause. The flows are those of FLOWS.md.
//
//	Variant            What changes                                   A replay of the flows must conclude
//	(normal, "")       nothing                                        every flow passes
//	price-changed      iPhone 17 costs $829.00, not $799.00,          app-bug: the first assertion on an iPhone 17
//	                   everywhere (list, page, cart, totals)          price or a total fails, expected vs actual
//	control-removed    the discount form's Apply button is gone       selector-drift: the tap on Apply matches
//	                   (Enter in the field still applies the code)    nothing; the report lists the closest nodes
//	server-error       every /checkout request answers 500            env-issue: the step that opens the checkout
//	unauthorized       signing in works; every page that needs a      auth-blocked: the first step after signing in
//	                   session then answers 401                       is refused
//	login-redirect     signing in works; every page that needs a      auth-blocked: the first step after signing in
//	                   session then redirects to /login?…&expired=1   lands on the login page
//	duplicate-buttons  every Add to cart button appears twice,        selector-drift (ambiguous): the tap on
//	                   identical (text and test id)                   Add to cart matches two and clicks neither
//	copy-changed       banner, descriptions, unasserted section       every flow passes
//	                   headings, help and footer text change
//	ids-churned        generated ids (:r1:, ember101) change; header  every flow passes
//	                   and footer links change order; test ids stay
//	reordered          product lists come in reverse order            every flow passes
//	apply-renamed      the Apply button reads Redeem                  selector-drift: the tap on Apply matches
//	                                                                  nothing after the code was typed
//	signin-renamed     the Sign in button reads Log in                selector-drift: the tap on Sign in matches
//	                                                                  nothing after the fields were filled
//	discount-moved     the discount section follows the delivery form every flow passes
//	apply-wrapped      the Apply button sits inside a div and a span  every flow passes
//	discount-confirm   a valid code asks "Apply SUMMER to this        selector-drift: the check after the discount
//	                   order?"; only Confirm discount applies it      step finds no "SUMMER applied" message
//	login-reordered    the sign-in form asks for the password first   every flow passes
//	login-optional-field                                              every flow passes
//	                   a new optional field on the sign-in form,
//	                   One-time code (optional)
//	discount-refused   Apply reads Redeem and SUMMER is refused as    selector-drift: the tap on Apply matches
//	                   expired: nothing comes off the total           nothing; a heal cannot pass the check after it
//
// The last eight are the mutations of e2e TestReplayMutations, which replays
// them with a model configured (docs/agent.md, "Mutation suite"): the
// renamed buttons are where an agent is handed the step.
//
// Variants and VariantInfo give the same table to tests.
//
// What the package must not do: reach the network, write files, put clock
// times or random values into a page, or import another Trailpin package
// (only its tests do, to start Chromium through replay). `host demo` wires it
// into the command line; this package has no command.
package demo
