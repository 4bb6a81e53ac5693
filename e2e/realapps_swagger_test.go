package e2e

import (
	"fmt"
	"testing"
)

// Swagger UI, the documentation site of an API, showing the Greenhouse API
// (realapps_greenhouse_test.go): tag sections and operations that expand,
// "Try it out" forms with parameters, drop-downs and a request body,
// Execute against the API on loopback, the live response, Clear and
// Cancel, the Authorize dialog, the schemas and the filter box.
var swaggerUI = &realApp{
	name: "swagger", pkg: "swagger-ui-dist", version: "5.35.0",
	start: "/index.html",
	rewrites: map[string]string{
		// The package's initializer shows the public Petstore; it shows the
		// Greenhouse API this server serves instead, with the filter box,
		// and asks no outside validator for a badge.
		`url: "https://petstore.swagger.io/v2/swagger.json",`: `url: "/openapi.json", filter: true, validatorUrl: null,`,
	},
	css:      []string{"swagger-ui.css"},
	pages:    []string{"index.html"},
	churnDOM: true,
	extra:    greenhouseAPI(),
	// Each response shows the Date header the server sent.
	volatile: []string{`date: [A-Z][a-z]{2}, ?\d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT`},
	secrets:  map[string]string{"value": greenhouseAPIKey},
}

// swOp is the CSS of an operation's block, by tag and operation id, and of
// rest inside it.
func swOp(tag, id, rest string) string { return "#operations-" + tag + "-" + id + " " + rest }

// swLiveStatus is the status code of an operation's live response.
func swLiveStatus(tag, id string) string {
	return swOp(tag, id, ".live-responses-table tbody .response-col_status")
}

// swLiveBody is the nth element (from 1) of the highlighted response body.
func swLiveBody(tag, id string, n int) string {
	return swOp(tag, id, fmt.Sprintf(".live-responses-table tbody .highlight-code code > span:nth-child(%d)", n))
}

func swExists(css string) string  { return "!!document.querySelector(" + flowQuote(css) + ")" }
func swMissing(css string) string { return "!document.querySelector(" + flowQuote(css) + ")" }

var swaggerFlow = []flowAct{
	// A tag section folds and unfolds.
	click("#operations-tag-orders .expand-operation", swMissing("#operations-orders-getOrder")),
	click("#operations-tag-orders .expand-operation", swExists("#operations-orders-getOrder")),
	// List the plants: a drop-down of the parameter's values, a number
	// typed over the default, Execute.
	click(swOp("plants", "listPlants", ".opblock-summary-control"), swExists(swOp("plants", "listPlants", ".opblock-body"))),
	click(swOp("plants", "listPlants", ".try-out__btn"), swExists(swOp("plants", "listPlants", ".execute"))),
	click(swOp("plants", "listPlants", "tr[data-param-name=status] select"), "document.activeElement.localName === 'select'"),
	press("ArrowDown", ""),
	press("Enter", valueIs(swOp("plants", "listPlants", "tr[data-param-name=status] select"), "reserved")),
	click(swOp("plants", "listPlants", "tr[data-param-name=limit] input"), "document.activeElement.localName === 'input'"),
	press("a", "document.activeElement.selectionStart === 0 && document.activeElement.selectionEnd === 2", "Control"),
	typeText("5", valueIs(swOp("plants", "listPlants", "tr[data-param-name=limit] input"), "5")),
	click(swOp("plants", "listPlants", ".execute"), textIs(swLiveStatus("plants", "listPlants"), "200")),
	assertVisible(swLiveStatus("plants", "listPlants")),
	assertVisible(swLiveBody("plants", "listPlants", 10)),
	// The same list as CSV: the response's media type sets Accept.
	click(swOp("plants", "listPlants", ".response-control-media-type--accept-controller select"), "document.activeElement.localName === 'select'"),
	press("ArrowDown", ""),
	press("Enter", valueIs(swOp("plants", "listPlants", ".response-control-media-type--accept-controller select"), "text/csv")),
	click(swOp("plants", "listPlants", ".execute"), "/Bird of paradise,Strelitzia/.test(document.querySelector("+flowQuote(swOp("plants", "listPlants", ".live-responses-table tbody code"))+")?.textContent || '')"),
	assertVisible(swOp("plants", "listPlants", ".live-responses-table tbody .highlight-code code")),
	click(swOp("plants", "listPlants", ".btn-clear"), swMissing(swOp("plants", "listPlants", ".live-responses-table"))),
	click(swOp("plants", "listPlants", ".try-out__btn.cancel"), swMissing(swOp("plants", "listPlants", ".execute"))),
	click(swOp("plants", "listPlants", ".opblock-summary-control"), swMissing(swOp("plants", "listPlants", ".opblock-body"))),
	// Add a plant: the request body's text area, written over.
	click(swOp("plants", "addPlant", ".opblock-summary-control"), swExists(swOp("plants", "addPlant", ".opblock-body"))),
	click(swOp("plants", "addPlant", ".try-out__btn"), swExists(swOp("plants", "addPlant", "textarea.body-param__text"))),
	click(swOp("plants", "addPlant", "textarea.body-param__text"), "document.activeElement.localName === 'textarea'"),
	press("a", "document.activeElement.selectionStart === 0 && document.activeElement.selectionEnd === document.activeElement.value.length", "Control"),
	typeText(`{"name": "Lemon tree", "species": "Citrus limon", "price": 45}`, valueIs(swOp("plants", "addPlant", "textarea.body-param__text"), `{"name": "Lemon tree", "species": "Citrus limon", "price": 45}`)),
	click(swOp("plants", "addPlant", ".execute"), textIs(swLiveStatus("plants", "addPlant"), "201")),
	assertVisible(swLiveStatus("plants", "addPlant")),
	click(swOp("plants", "addPlant", ".try-out__btn.cancel"), swMissing(swOp("plants", "addPlant", ".execute"))),
	// A plant that is not there.
	click(swOp("plants", "getPlant", ".opblock-summary-control"), swExists(swOp("plants", "getPlant", ".opblock-body"))),
	click(swOp("plants", "getPlant", ".try-out__btn"), swExists(swOp("plants", "getPlant", ".execute"))),
	click(swOp("plants", "getPlant", "tr[data-param-name=plantId] input"), "document.activeElement.localName === 'input'"),
	typeText("99", valueIs(swOp("plants", "getPlant", "tr[data-param-name=plantId] input"), "99")),
	click(swOp("plants", "getPlant", ".execute"), textIs(swLiveStatus("plants", "getPlant"), "404")),
	assertVisible(swLiveStatus("plants", "getPlant")),
	// The API key, in the Authorize dialog: a secret.
	click(".scheme-container .authorize", swExists(".dialog-ux #api_key_value")),
	{Do: "markSensitive", CSS: "#api_key_value"},
	click("#api_key_value", "document.activeElement.id === 'api_key_value'"),
	typeText(greenhouseAPIKey, valueIs("#api_key_value", greenhouseAPIKey)),
	click(".dialog-ux .auth-btn-wrapper .authorize", swExists(".dialog-ux .auth-btn-wrapper .btn-done")),
	click(".dialog-ux .btn-done", swMissing(".dialog-ux")),
	// An order, which needs the key.
	click(swOp("orders", "getOrder", ".opblock-summary-control"), swExists(swOp("orders", "getOrder", ".opblock-body"))),
	click(swOp("orders", "getOrder", ".try-out__btn"), swExists(swOp("orders", "getOrder", ".execute"))),
	click(swOp("orders", "getOrder", "tr[data-param-name=orderId] input"), "document.activeElement.localName === 'input'"),
	typeText("GH-1001", valueIs(swOp("orders", "getOrder", "tr[data-param-name=orderId] input"), "GH-1001")),
	click(swOp("orders", "getOrder", ".execute"), textIs(swLiveStatus("orders", "getOrder"), "200")),
	assertVisible(swLiveStatus("orders", "getOrder")),
	assertVisible(swLiveBody("orders", "getOrder", 25)),
	// The schemas: fold the section, unfold it, open one.
	click(".models-control", swMissing("#model-Plant")),
	click(".models-control", swExists("#model-Plant")),
	click("#model-Plant .model-box-control", swExists("#model-Plant .model .property-row")),
	// Swagger UI writes the schema's rows about 25 ms after the click (it
	// resolves the schema behind a debounce): a script that goes on at once
	// would act again before they are there, and the recorder, faithful to
	// the screen at each boundary, would give the rows to the next step
	// (docs/recording.md, "An effect the app defers"). A script that needs
	// them checks them, as this one does.
	assertVisible("#model-Plant .property-row:nth-child(3) > td:first-child"),
	// A right-click on the title opens no menu of the app's.
	{Do: "rightclick", CSS: ".info .title"},
	// The filter box keeps the tags whose name holds what is typed.
	click(".operation-filter-input", "document.activeElement.matches('.operation-filter-input')"),
	typeText("ord", countIs(".opblock-tag-section", 1)),
	assertVisible("#operations-tag-orders a > span"),
}

func TestRealAppSwagger(t *testing.T) {
	t.Parallel()
	runRealApp(t, swaggerUI, swaggerFlow)
}
