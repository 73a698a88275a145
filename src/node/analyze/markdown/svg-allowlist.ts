/**
 * The SVG the sanitizer keeps: the shapes and text a diagram is drawn with (diagram.ts makes them from a
 * mermaid block, and a writer may write them in raw HTML), with their geometry and paint. Nothing that
 * loads or runs anything: no `<use>`, `<image>`, `<foreignObject>`, `<style>`, animation or `style`; no `<title>`
 * or `<desc>` either, as the allowlist holds for every element and HTML reads a `<title>`'s content as text
 * (a drawing is named by its `aria-label`).
 * Attribute names as the parser reads them, lower-cased; a browser gives an SVG attribute its case back.
 */
export const SVG_TAGS = [
  'svg',
  'g',
  'defs',
  'marker',
  'rect',
  'circle',
  'ellipse',
  'line',
  'polyline',
  'polygon',
  'path',
  'text',
  'tspan',
];

const GEOMETRY = ['x', 'y', 'x1', 'y1', 'x2', 'y2', 'cx', 'cy', 'r', 'rx', 'ry', 'dx', 'dy', 'width', 'height'];
const PAINT = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'stroke-linecap',
  'stroke-linejoin',
  'opacity',
  'transform',
  'marker-start',
  'marker-end',
];
const TEXT = ['text-anchor', 'dominant-baseline', 'font-size', 'font-weight', 'font-style'];

export const SVG_ATTRIBUTES: Record<string, string[]> = {
  svg: ['xmlns', 'viewbox', 'width', 'height', 'preserveaspectratio', 'focusable'],
  g: [...PAINT, ...TEXT],
  marker: ['markerwidth', 'markerheight', 'refx', 'refy', 'orient', 'viewbox', 'markerunits'],
  rect: [...GEOMETRY, ...PAINT],
  circle: [...GEOMETRY, ...PAINT],
  ellipse: [...GEOMETRY, ...PAINT],
  line: [...GEOMETRY, ...PAINT],
  polyline: ['points', ...PAINT],
  polygon: ['points', ...PAINT],
  path: ['d', ...PAINT],
  text: [...GEOMETRY, ...PAINT, ...TEXT],
  tspan: [...GEOMETRY, ...PAINT, ...TEXT],
};
