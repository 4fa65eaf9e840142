/** grep's `type` shortcut: a language or file-type name to the file extensions it covers. */

const EXTENSIONS_BY_TYPE: Record<string, readonly string[]> = {
  ts: ['ts', 'tsx', 'mts', 'cts'],
  js: ['js', 'jsx', 'mjs', 'cjs'],
  py: ['py', 'pyi'],
  rust: ['rs'],
  go: ['go'],
  java: ['java'],
  kotlin: ['kt', 'kts'],
  c: ['c', 'h'],
  cpp: ['cpp', 'cc', 'cxx', 'hpp', 'hh', 'hxx', 'h'],
  csharp: ['cs'],
  ruby: ['rb'],
  php: ['php'],
  swift: ['swift'],
  md: ['md', 'mdx', 'markdown'],
  json: ['json', 'jsonc', 'json5'],
  yaml: ['yaml', 'yml'],
  toml: ['toml'],
  html: ['html', 'htm'],
  css: ['css', 'scss', 'sass', 'less'],
  sh: ['sh', 'bash', 'zsh'],
  sql: ['sql'],
  xml: ['xml'],
  txt: ['txt'],
};

const ALIASES: Record<string, string> = {
  typescript: 'ts',
  javascript: 'js',
  python: 'py',
  rs: 'rust',
  kt: 'kotlin',
  cc: 'cpp',
  cxx: 'cpp',
  'c++': 'cpp',
  cs: 'csharp',
  rb: 'ruby',
  markdown: 'md',
  yml: 'yaml',
  bash: 'sh',
  shell: 'sh',
  text: 'txt',
};

/** The extensions (without dots) of a type name, or undefined for an unknown type. */
export function extensionsForType(type: string): readonly string[] | undefined {
  const key = type.trim().toLowerCase();
  return EXTENSIONS_BY_TYPE[ALIASES[key] ?? key];
}

export function knownTypeNames(): string[] {
  return Object.keys(EXTENSIONS_BY_TYPE);
}
