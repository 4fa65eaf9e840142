import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { makeTestWorkspace } from '../../../test/support/testWorkspace';
import { defaultConfig } from '../config/coreConfig';
import { WebAccess } from '../web/webAccess';
import { webSearchTool } from './webSearchTool';

const ws = makeTestWorkspace();
process.on('exit', () => ws.cleanup());

function webAccess(env: NodeJS.ProcessEnv = {}, searchKeys: Record<string, string> = {}): WebAccess {
  const config = defaultConfig('/home/u', '/w', '/home/u/.config/catalyst-code', 'linux');
  return new WebAccess({ ...config, searchKeys }, env);
}

describe('web_search', () => {
  test('called without any key: upstream\'s "all backends failed", naming what is missing', async () => {
    const outcome = await webSearchTool.execute({ query: 'rust vec' }, { ...ws.context(), web: webAccess() });
    assert.equal(outcome.ok, false);
    assert.equal(
      outcome.output,
      'web_search: all backends failed; retry later or use the `fetch` tool against a specific URL. query was "rust vec". ' +
        'attempts: Exa: no API key (set EXA_API_KEY or send set_search_key) | Tavily: no API key (set TAVILY_API_KEY or send set_search_key)',
    );
  });

  test("an empty query is refused in upstream's words; web tools turned off are withheld (the gate refuses a call anyway)", async () => {
    assert.equal(
      (await webSearchTool.execute({ query: '  ' }, { ...ws.context(), web: webAccess() })).output,
      "web_search requires a non-empty 'query'",
    );
    const config = defaultConfig('/home/u', '/w', '/home/u/.config/catalyst-code', 'linux');
    const off = new WebAccess({ ...config, webTools: false }, { EXA_API_KEY: 'k-1234' });
    assert.match(off.refusal('web_search') ?? '', /^web_search: web tools are turned off/);
    assert.equal(off.refusal('read_file'), undefined);
    assert.deepEqual([...off.withheldTools()], ['fetch', 'web_search']);
  });

  test('keys: set_search_key wins over search_keys, which wins over the environment; web_search is withheld without any', () => {
    const web = webAccess({ EXA_API_KEY: ' env-exa ' }, { exa: 'config-exa' });
    assert.equal(web.keys.get('exa'), 'config-exa');
    web.keys.setRuntime('exa', 'runtime-exa');
    assert.equal(web.keys.get('exa'), 'runtime-exa');
    web.keys.setRuntime('exa', '');
    web.keys.setConfigured('exa', '');
    assert.equal(web.keys.get('exa'), 'env-exa');
    assert.ok(web.keys.secrets().includes('env-exa'));
    assert.deepEqual([...webAccess().withheldTools()], ['web_search']);
    assert.deepEqual([...web.withheldTools()], []);
  });
});
