package install

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
)

// Print writes the report for a person at a terminal: where the extension
// is and how to load it, where the host was registered, and the MCP client
// config to paste.
func (r *Report) Print(w io.Writer) error {
	var b strings.Builder
	if r.Changed() {
		b.WriteString("OpenChrome is installed.\n\n")
	} else {
		b.WriteString("OpenChrome was already installed; nothing changed.\n\n")
	}
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "Extension folder:\t%s\t(%s)\n", r.ExtensionDir, r.ExtensionStatus)
	fmt.Fprintf(tw, "Extension ID:\t%s\n", r.ExtensionID)
	fmt.Fprintf(tw, "Native host:\t%s\n", r.Binary)
	if r.Config != "" {
		fmt.Fprintf(tw, "Your policy:\t%s\t(which sites agents may reach; docs/config.md)\n", r.Config)
	}
	_ = tw.Flush() // writes to a strings.Builder cannot fail

	b.WriteString("\nRegistered the native host for:\n")
	tw = tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	for _, t := range slices.Concat(r.Browsers, []Target{r.Profile}) {
		fmt.Fprintf(tw, "  %s\t%s\t(%s)\n", t.Name, t.Path, t.Status)
	}
	_ = tw.Flush()
	if len(r.Browsers) == 0 {
		b.WriteString("No Chrome, Chromium, Brave or Edge was found for this user. Install one and run\n" +
			"`openchrome install` again, or name it with --browser or --user-data-dir.\n")
	}

	fmt.Fprintf(&b, "\nLoad the extension in Chrome (once):\n"+
		"  1. Open chrome://extensions\n"+
		"  2. Turn on Developer mode (top right)\n"+
		"  3. Click \"Load unpacked\" and choose %s\n"+
		"Or try it in Chromium without touching your own Chrome: openchrome launch\n", r.ExtensionDir)

	b.WriteString("\nAdd OpenChrome to your MCP client:\n\n")
	b.WriteString(MCPConfig(r.Binary))
	_, err := io.WriteString(w, b.String())
	return err
}

// Print writes the report for a person at a terminal.
func (r *UninstallReport) Print(w io.Writer) error {
	var b strings.Builder
	switch {
	case r.NothingRecorded:
		b.WriteString("Nothing to remove: OpenChrome has no install record here.\n")
	case len(r.Removed) == 0:
		b.WriteString("Nothing was removed.\n")
	default:
		b.WriteString("Removed:\n")
		for _, p := range r.Removed {
			fmt.Fprintf(&b, "  %s\n", p)
		}
	}
	if len(r.Kept) > 0 {
		b.WriteString("Left in place:\n")
		for _, k := range r.Kept {
			fmt.Fprintf(&b, "  %s (%s)\n", k.Path, k.Reason)
		}
	}
	if !r.NothingRecorded {
		b.WriteString("Remove the extension from Chrome at chrome://extensions if you loaded it there.\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
