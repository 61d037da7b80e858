/** A rectangle in the diagram's coordinates. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const GAP = 2;
/** Where along its arrow a label may sit, tried in this order: the middle first. */
const ALONG = [0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8];
/** Past the arrow's own places, how far down from the middle a label may move, in label heights. */
const MAX_STEPS = 40;

const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width + GAP &&
  b.x < a.x + a.width + GAP &&
  a.y < b.y + b.height + GAP &&
  b.y < a.y + a.height + GAP;

/**
 * Lays out the arrows' labels so that none overlaps another or a box: each label, in the
 * arrows' order, takes the first free place along its own arrow (the middle, then out towards
 * its ends, above the line then below), else the nearest free place below the middle. The labels
 * are measured in the page (their font decides their widths), so this runs once the picture is
 * in the document; it grows the picture when a label went below it, and puts a backing under
 * each label so an arrow passing behind it leaves it readable.
 */
export function placeLabels(
  picture: SVGSVGElement,
  labels: readonly { element: SVGTextElement; path: SVGPathElement }[],
  obstacles: readonly Box[],
): void {
  const taken: Box[] = [...obstacles];
  const width = Number(picture.getAttribute('width'));
  let height = Number(picture.getAttribute('height'));
  for (const { element, path } of labels) {
    const measured = element.getBBox();
    const anchorX = Number(element.getAttribute('x'));
    const anchorY = Number(element.getAttribute('y'));
    // The box relative to the text's anchor (middle of the baseline).
    const dx = measured.x - anchorX;
    const dy = measured.y - anchorY;
    const boxAt = (x: number, y: number): Box => ({
      x: x + dx,
      y: y + dy,
      width: measured.width,
      height: measured.height,
    });
    const fits = (box: Box) =>
      box.x >= 0 && box.x + box.width <= width && box.y >= 0 && !taken.some((other) => overlaps(box, other));
    const length = path.getTotalLength();
    let chosen: { x: number; y: number } | undefined;
    for (const t of ALONG) {
      const point = path.getPointAtLength(length * t);
      const x = Math.min(Math.max(point.x, measured.width / 2), width - measured.width / 2);
      for (const y of [point.y - 4 - (measured.height + dy), point.y + 4 - dy]) {
        if (fits(boxAt(x, y))) {
          chosen = { x, y };
          break;
        }
      }
      if (chosen !== undefined) break;
    }
    if (chosen === undefined) {
      const middle = path.getPointAtLength(length / 2);
      const x = Math.min(Math.max(middle.x, measured.width / 2), width - measured.width / 2);
      for (let step = 1; step <= MAX_STEPS && chosen === undefined; step++) {
        const y = middle.y + step * (measured.height + GAP);
        if (fits(boxAt(x, y))) chosen = { x, y };
      }
      chosen ??= { x, y: middle.y };
    }
    element.setAttribute('x', String(chosen.x));
    element.setAttribute('y', String(chosen.y));
    const box = boxAt(chosen.x, chosen.y);
    taken.push(box);
    const backing = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
    backing.setAttribute('class', 'label-backing');
    backing.setAttribute('x', String(box.x - 1));
    backing.setAttribute('y', String(box.y));
    backing.setAttribute('width', String(box.width + 2));
    backing.setAttribute('height', String(box.height));
    element.before(backing);
    height = Math.max(height, box.y + box.height + 10);
  }
  picture.setAttribute('height', String(height));
  picture.setAttribute('viewBox', `0 0 ${width} ${height}`);
}
