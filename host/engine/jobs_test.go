package engine

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/bridge"
	"github.com/openchrome/openchrome/host/crawl"
	"github.com/openchrome/openchrome/ledger"
	"github.com/openchrome/openchrome/protocol"
)

func TestALongCrawlAnswersWithItsBriefAndAFile(t *testing.T) {
	home := ledger.Home(t.TempDir())
	web := &crawlWeb{at: map[int]string{}, content: strings.Repeat("A page of documentation. ", 2000)}
	e, _ := newEngineWith(t, Options{Home: home}, protocol.Version, web.answer)
	r := run(t, e, "crawl", `{"url":"http://s/0","maxPages":5,"maxDepth":10,"sameOrigin":false}`)
	require.False(t, r.IsError, textOf(t, r))
	text := textOf(t, r)
	assert.Less(t, len(text), maxJobResult+2000, "one answer stays within what a client takes")
	var brief struct {
		crawl.Brief
		Whole string `json:"whole"`
	}
	require.NoError(t, json.Unmarshal([]byte(text), &brief))
	require.Len(t, brief.Pages, 5, "every page is named")
	assert.Equal(t, len(web.content), brief.Pages[0].Chars)
	require.Len(t, r.Content, 2)
	link := r.Content[1]
	assert.Equal(t, "resource_link", link.Type)
	path := strings.TrimPrefix(link.URI, "file://")
	assert.Contains(t, brief.Whole, path)
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var whole crawl.Result
	require.NoError(t, json.Unmarshal(b, &whole))
	require.Len(t, whole.Pages, 5)
	assert.Equal(t, web.content, whole.Pages[4].Content, "the file has all of it")
}

func TestALongCrawlTasksResultIsReadAsItsBrief(t *testing.T) {
	store, err := ledger.Open(t.TempDir(), ledger.TaskLifecycle(), ledger.Options{})
	require.NoError(t, err)
	reg := bridge.NewRegistry(bridge.RegistryOptions{})
	e := New(Options{Browsers: reg, Tasks: store})
	t.Cleanup(func() { e.Close(context.Background()) })
	web := &crawlWeb{at: map[int]string{}, content: strings.Repeat("A page of documentation. ", 2000)}
	link(reg, web.answer)
	var out struct {
		TaskID string `json:"task_id"`
	}
	r := run(t, e, "oc_task_start", `{"kind":"crawl","args":{"url":"http://s/0","maxPages":5,"maxDepth":10,"sameOrigin":false}}`)
	require.NoError(t, json.Unmarshal([]byte(textOf(t, r)), &out))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err = store.Wait(ctx, out.TaskID)
	require.NoError(t, err)

	text := textOf(t, run(t, e, "oc_task_get", `{"task_id":"`+out.TaskID+`","include_result":true}`))
	assert.Less(t, len(text), maxJobResult+3000)
	var got struct {
		Result crawl.Brief `json:"result"`
		Note   string      `json:"note"`
	}
	require.NoError(t, json.Unmarshal([]byte(text), &got))
	require.Len(t, got.Result.Pages, 5)
	assert.Equal(t, len(web.content), got.Result.Pages[0].Chars)
	assert.Contains(t, got.Note, out.TaskID+"/result.json")
}
