// Copyright 2026 The pebblerf Authors. All rights reserved.

package report

import (
	"encoding/json"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRenderInChromium opens a report of every section in headless
// Chromium, 1,000 pixels wide, as a reader would, and checks what a
// reading of the HTML cannot: that the page is no wider than the window
// (a long title, a wide table or a chart that does not scale would widen
// it) and that every section drew a chart or a table. A copy of the report
// gets a probe script, which writes what it measured into the DOM that
// Chromium dumps; the report itself runs no script. Debian's chromium
// package provides the browser (CI installs it); without it the test
// skips.
func TestRenderInChromium(t *testing.T) {
	browser := os.Getenv("CHROMIUM")
	if browser == "" {
		browser = "chromium"
	}
	if _, err := exec.LookPath(browser); err != nil {
		t.Skipf("%s not found: install Debian's chromium package (apt-get install chromium) to run this test", browser)
	}
	dir := t.TempDir()
	doc := sampleReport().Render()
	const probe = `<script>window.addEventListener("load", () => {
	const sections = [...document.querySelectorAll("section")].map(s => [s.id, s.querySelectorAll("svg, table").length]);
	document.body.setAttribute("data-probe", JSON.stringify({
		pageWidth: document.documentElement.scrollWidth, windowWidth: window.innerWidth, sections}));
});</script>`
	page := filepath.Join(dir, "report.html")
	require.NoError(t, os.WriteFile(page, []byte(strings.Replace(doc, "</body>", probe+"</body>", 1)), 0o644))
	out, err := exec.Command(browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
		"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+filepath.Join(dir, "profile"), "--window-size=1000,2000",
		"--virtual-time-budget=5000", "--dump-dom", "file://"+page).Output()
	require.NoError(t, err)
	m := regexp.MustCompile(`data-probe="([^"]*)"`).FindSubmatch(out)
	require.NotNil(t, m, "the probe did not run: %.500s", out)
	var got struct {
		PageWidth, WindowWidth int
		Sections               [][2]any
	}
	require.NoError(t, json.Unmarshal([]byte(html.UnescapeString(string(m[1]))), &got))
	require.Positive(t, got.WindowWidth)
	require.LessOrEqual(t, got.PageWidth, got.WindowWidth, "the page is wider than the window")
	require.Len(t, got.Sections, 8, "every section of the sample report")
	for _, s := range got.Sections {
		require.Positive(t, s[1], "section %v drew no chart and no table", s[0])
	}
}
