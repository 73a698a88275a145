/**
 * CSS for every colour class found in the fragments: light by default; dark when the reader chose dark,
 * or when the system prefers dark and the reader did not choose light (the same rule as app.css). The dark
 * colours are for the screen only: paper is white, and print uses the light palette (app.css).
 */
export function highlightCss(pairs: ReadonlySet<string>): string {
  const light: string[] = ['.fi{font-style:italic}.fb{font-weight:600}'];
  const chosenDark: string[] = [];
  const systemDark: string[] = [];
  for (const pair of [...pairs].sort()) {
    const [lightColour, darkColour] = pair.split('-');
    light.push(`.c-${pair}{color:#${lightColour}}`);
    chosenDark.push(`:root[data-theme=dark] .c-${pair}{color:#${darkColour}}`);
    systemDark.push(`:root:not([data-theme=light]) .c-${pair}{color:#${darkColour}}`);
  }
  return [
    ...light,
    `@media screen{${chosenDark.join('')}}`,
    `@media screen and (prefers-color-scheme:dark){${systemDark.join('')}}`,
  ].join('\n');
}
