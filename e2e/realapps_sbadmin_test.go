package e2e

import (
	"fmt"
	"testing"
)

// SB Admin 2, a Bootstrap admin dashboard: a sidebar with collapsing
// groups and a toggle, topbar drop-downs with counters, a modal, cards,
// a DataTables table (search, sorting, page length, pagination and its
// "Showing 1 to 10 of 57 entries" counter) and a login form with a
// custom check box.
var sbAdmin = &realApp{
	name: "sbadmin", pkg: "startbootstrap-sb-admin-2", version: "4.1.4",
	start: "/index.html",
	rewrites: map[string]string{
		// The web font and the stock photos (avatars, the login page's
		// picture) come from outside; the package ships neither.
		"https://fonts.googleapis.com/css?family=Nunito:*": "/__empty?as=.css",
		"https://source.unsplash.com/*":                    "/__empty?as=.jpg",
	},
	css:     []string{"css/sb-admin-2.css"},
	pages:   []string{"index.html", "cards.html", "tables.html", "login.html", "forgot-password.html"},
	churnJS: []string{"js/sb-admin-2.min.js", "js/demo/datatables-demo.js"},
	// The password field is a secret: the trail reads it as
	// ${secret:password}, named after the field.
	secrets: map[string]string{"password": sbPassword},
	libraryJS: []string{
		"vendor/jquery/jquery.min.js", "vendor/bootstrap/js/bootstrap.bundle.min.js",
		"vendor/jquery-easing/jquery.easing.min.js", "vendor/chart.js/Chart.min.js",
		"vendor/datatables/jquery.dataTables.min.js", "vendor/datatables/dataTables.bootstrap4.min.js",
	},
}

// sbPassword is what the flow types into the login form's password field.
const sbPassword = "Sb-admin-2-demo"

// sbSettled is a wait: no jQuery effect (the scroll-to-top link's fade,
// a smooth scroll) and no CSS transition or animation (a drop-down's
// grow-in, the modal's fade, a collapsing group) is running, and the
// scroll-to-top link shows exactly when the page is scrolled down. The
// link fades in or out from the page's scroll event, which comes a frame
// after the scroll: an action that scrolled may not have started the fade
// yet when the effects are counted.
const sbSettled = `(!window.jQuery || jQuery.timers.length === 0) && document.getAnimations().every((a) => a.playState !== 'running') && ` +
	`(() => { const up = document.querySelector('a[href="#page-top"]'); return !up || (getComputedStyle(up).display !== 'none') === (scrollY > 100); })()`

// sbMenu is the CSS of the drop-down menu the topbar toggle id opens.
func sbMenu(toggle, rest string) string {
	return fmt.Sprintf(".dropdown-menu[aria-labelledby=%s] %s", toggle, rest)
}

// sbOpen is a wait: the drop-down of the toggle id is open (or closed).
func sbOpen(toggle string, open bool) string {
	return fmt.Sprintf("document.querySelector('#%s').getAttribute('aria-expanded') === '%t'", toggle, open)
}

const sbInfo = "#dataTable_info"

func sbShowing(text string) string { return textIs(sbInfo, text) }

func sbLoad(css, wait string) flowAct {
	return flowAct{Do: "click", CSS: css, Load: true, Wait: wait}
}

// sbAdminFlow waits after every action until the page holds still
// (sbSettled), as a person waits for a menu to finish opening: what the
// recorder captures and what Playwright reads must not fall inside a fade.
var sbAdminFlow = sbSettle([]flowAct{
	// The dashboard: the alerts' counter and a card's figure.
	assertVisible("#alertsDropdown .badge-counter"),
	assertVisible(".border-left-primary .h5"),
	// The topbar's drop-downs: alerts (closed with Escape), messages, the
	// user menu and its Logout, which asks in a modal.
	click("#alertsDropdown", sbOpen("alertsDropdown", true)),
	assertVisible(sbMenu("alertsDropdown", ".dropdown-header")),
	press("Escape", sbOpen("alertsDropdown", false)),
	click("#messagesDropdown", sbOpen("messagesDropdown", true)),
	assertVisible(sbMenu("messagesDropdown", "a.dropdown-item:nth-of-type(1) .small")),
	click("#userDropdown", all(sbOpen("messagesDropdown", false), sbOpen("userDropdown", true))),
	click(sbMenu("userDropdown", `a[data-target="#logoutModal"]`), "document.querySelector('#logoutModal').matches('.show')"),
	assertVisible("#exampleModalLabel"),
	click("#logoutModal .modal-footer button", "getComputedStyle(document.querySelector('#logoutModal')).display === 'none'"),
	// The sidebar: open a group, go to Cards, fold the sidebar and unfold it.
	click(`a[data-target="#collapseTwo"]`, "document.querySelector('#collapseTwo').matches('.show')"),
	sbLoad(`#collapseTwo a[href="cards.html"]`, "location.pathname === '/cards.html'"),
	click("#sidebarToggle", "document.body.matches('.sidebar-toggled')"),
	click("#sidebarToggle", "!document.body.matches('.sidebar-toggled')"),
	sbLoad(`#accordionSidebar a.nav-link[href="tables.html"]`, "location.pathname === '/tables.html'"),
	// The data table: its counter, a sort, the page length, the pages.
	assertVisible(sbInfo),
	click("#dataTable thead th:nth-child(4)", textIs("#dataTable tbody tr:first-child td:first-child", "Tatyana Fitzpatrick")),
	assertVisible("#dataTable tbody tr:first-child td:first-child"),
	click("select[name=dataTable_length]", "document.activeElement.name === 'dataTable_length'"),
	press("ArrowDown", ""),
	press("Enter", sbShowing("Showing 1 to 25 of 57 entries")),
	assertValue("select[name=dataTable_length]"),
	click(`#dataTable_paginate a[data-dt-idx="2"]`, sbShowing("Showing 26 to 50 of 57 entries")),
	assertVisible(sbInfo),
	click("#dataTable_next a", sbShowing("Showing 51 to 57 of 57 entries")),
	assertVisible(sbInfo),
	// A right-click on a cell opens no menu of the app's: nothing changes.
	{Do: "rightclick", CSS: "#dataTable tbody tr:first-child td:nth-child(2)"},
	// The search filter: a word, then Control+A and another.
	click("#dataTable_filter input", "document.activeElement.matches('#dataTable_filter input')"),
	typeText("London", sbShowing("Showing 1 to 12 of 12 entries (filtered from 57 total entries)")),
	assertVisible(sbInfo),
	press("a", "(() => { const e = document.activeElement; return e.selectionStart === 0 && e.selectionEnd === e.value.length; })()", "Control"),
	typeText("Tokyo", sbShowing("Showing 1 to 5 of 5 entries (filtered from 57 total entries)")),
	assertVisible(sbInfo),
	// Log out through the modal, to the login page.
	click("#userDropdown", sbOpen("userDropdown", true)),
	click(sbMenu("userDropdown", `a[data-target="#logoutModal"]`), "document.querySelector('#logoutModal').matches('.show')"),
	sbLoad("#logoutModal .modal-footer a", "location.pathname === '/login.html'"),
	assertVisible("h1"),
	// The login form: an address, a password and Remember Me, then Forgot
	// Password?
	click("#exampleInputEmail", "document.activeElement.id === 'exampleInputEmail'"),
	typeText("douglas.mcgee@example.com", valueIs("#exampleInputEmail", "douglas.mcgee@example.com")),
	click("#exampleInputPassword", "document.activeElement.id === 'exampleInputPassword'"),
	typeText(sbPassword, valueIs("#exampleInputPassword", sbPassword)),
	click("label[for=customCheck]", "document.querySelector('#customCheck').checked"),
	assertValue("#exampleInputEmail"),
	sbLoad(`a[href="forgot-password.html"]`, "location.pathname === '/forgot-password.html'"),
	{Do: "assertURL", Text: "/forgot-password.html"},
})

// sbSettle adds sbSettled to the wait of every action of flow.
func sbSettle(flow []flowAct) []flowAct {
	for i := range flow {
		if flow[i].Wait == "" {
			flow[i].Wait = sbSettled
		} else {
			flow[i].Wait = all(flow[i].Wait, sbSettled)
		}
	}
	return flow
}

func TestRealAppSBAdmin(t *testing.T) {
	t.Parallel()
	runRealApp(t, sbAdmin, sbAdminFlow)
}
