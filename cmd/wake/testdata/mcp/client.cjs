// Drives `wake mcp` with the official TypeScript MCP client, for
// TestMCPTypeScriptClient: lists the tools and resources, calls every tool,
// reads every resource, sends bad arguments and lines that are not JSON-RPC,
// and prints what it saw as one JSON object for the Go test to check.
//
// Usage: node client.cjs SDK_DIR WAKE_BINARY PROJECT_DIR
'use strict';
const { createRequire } = require('node:module');
const path = require('node:path');

const [sdkDir, wake, project] = process.argv.slice(2);
const sdk = createRequire(path.join(sdkDir, 'package.json'));
const { Client } = sdk('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = sdk('@modelcontextprotocol/sdk/client/stdio.js');

function text(result) {
  return (result.content || []).map((c) => c.text || '').join('');
}

async function main() {
  const transport = new StdioClientTransport({ command: wake, args: ['mcp'], cwd: project, env: process.env, stderr: 'pipe' });
  const client = new Client({ name: 'wake-e2e', version: '1.0.0' });
  const transportErrors = [];
  client.onerror = (e) => transportErrors.push(String(e && e.message ? e.message : e));
  await client.connect(transport);
  const out = {
    server: client.getServerVersion(),
    instructions: client.getInstructions() || '',
    tools: [],
    resources: [],
    templates: [],
    calls: [],
    bad: [],
    unknownTool: '',
    garbage: [],
    after: null,
  };
  for (const t of (await client.listTools()).tools) {
    out.tools.push({ name: t.name, description: t.description, schema: t.inputSchema });
  }
  for (const r of (await client.listResources()).resources) {
    const read = await client.readResource({ uri: r.uri });
    out.resources.push({ uri: r.uri, text: read.contents.map((c) => c.text).join('') });
  }
  for (const t of (await client.listResourceTemplates()).resourceTemplates) {
    out.templates.push(t.uriTemplate);
  }
  const packet = await client.readResource({ uri: 'wake://packet/project' });
  out.resources.push({ uri: 'wake://packet/project', text: packet.contents.map((c) => c.text).join('') });
  const calls = [
    ['wake_load', {}],
    ['wake_decide', { what: 'Bake at dawn', because: 'the shop opens at seven', topic: 'hours' }],
    ['wake_contest', { decision: '1', objection: 'the baker sleeps then', proposal: 'bake the night before' }],
    ['wake_cold', { folder: 'cold/notes/' }],
    ['wake_cold', { path: 'notes/oven.md' }],
    ['wake_check', { format: 'json' }],
    ['wake_handoff', { summary: 'Planned the baking hours', next: 'Ask the baker', decision: ['Sell rye because the regulars ask'] }],
    ['wake_log', { op: 'decide' }],
    ['wake_remember', { text: 'Ask about Sunday opening', topic: 'hours', tags: ['shop'] }],
    ['memory_wakeup', { task: 'plan the baking hours', files: ['oven.go'], target: 'claude' }],
  ];
  for (const [name, args] of calls) {
    const r = await client.callTool({ name, arguments: args });
    out.calls.push({ name, args, isError: !!r.isError, text: text(r) });
  }
  const bad = [
    ['wake_decide', { what: 7, because: 'x' }],
    ['wake_decide', { what: 'x' }],
    ['wake_cold', { path: '../main.md' }],
    ['wake_log', { since: 'yesterday' }],
    ['wake_handoff', { summary: 'one\ntwo', next: 'n' }],
    ['wake_load', { page: 9 }],
    ['memory_wakeup', { target: 'emacs' }],
  ];
  for (const [name, args] of bad) {
    const r = await client.callTool({ name, arguments: args });
    out.bad.push({ name, args, isError: !!r.isError, text: text(r) });
  }
  try {
    await client.callTool({ name: 'wake_nope', arguments: {} });
  } catch (e) {
    out.unknownTool = String(e.message || e);
  }
  // Lines no client library would send, written to the server's stdin
  // beside the transport: each must be answered, and the session go on.
  const stdin = transport._process.stdin;
  const replies = [];
  let pending = '';
  transport._process.stdout.on('data', (chunk) => {
    pending += chunk.toString('utf8');
    let i;
    while ((i = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, i);
      pending = pending.slice(i + 1);
      try {
        const m = JSON.parse(line);
        if (m.error && (m.id === null || m.id === 'g-1')) replies.push({ id: m.id, code: m.error.code, message: m.error.message });
      } catch (e) {
        replies.push({ unparsed: line });
      }
    }
  });
  for (const line of ['garbage{{', '[1,2]', '{"id":"g-1"}']) {
    stdin.write(line + '\n');
  }
  for (let waited = 0; replies.length < 3 && waited < 10000; waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  out.garbage = replies;
  out.clientErrors = transportErrors.length;
  const r = await client.callTool({ name: 'wake_check', arguments: {} });
  out.after = { isError: !!r.isError, text: text(r) };
  await client.close();
  process.stdout.write(JSON.stringify(out));
}

main().catch((e) => {
  process.stderr.write(String(e && e.stack ? e.stack : e) + '\n');
  process.exit(1);
});
