package launch

// Args returns the browser's command line for opts, without the executable.
// It runs nothing, so what launch starts can be read and tested as data.
func Args(opts Options) []string {
	args := []string{
		"--user-data-dir=" + opts.Home.Profile(),
		"--load-extension=" + opts.Home.Extension(),
		"--no-first-run",
		"--no-default-browser-check",
	}
	if opts.Headless {
		// Headless windows default to 800x600, where many sites serve
		// their mobile layout; agents expect the desktop one.
		args = append(args, "--headless=new", "--disable-gpu", "--window-size=1280,800")
	}
	// Chromium refuses to start as root with its sandbox on, headless or not.
	if opts.Root {
		args = append(args, "--no-sandbox")
	}
	args = append(args, opts.ExtraArgs...)
	url := opts.URL
	if url == "" {
		url = "about:blank"
	}
	return append(args, url)
}

// NeedsHeadless reports whether a browser started now would have no screen
// to draw on: Linux with neither an X11 nor a Wayland display. macOS always
// has one. getenv is os.Getenv in production.
func NeedsHeadless(goos string, getenv func(string) string) bool {
	return goos == "linux" && getenv("DISPLAY") == "" && getenv("WAYLAND_DISPLAY") == ""
}
