import { readFileSync } from 'node:fs';
import { DomUtils, parseDocument } from 'htmlparser2';
import type { Element } from 'domhandler';

/** A built HTML file, parsed: to assert what a reader's browser gets, not what the markdown said. */
export class HtmlFile {
  private readonly doc: ReturnType<typeof parseDocument>;

  constructor(file: string) {
    this.doc = parseDocument(readFileSync(file, 'utf8'));
  }

  /** Elements by tag name, optionally with a class. */
  all(tag: string, className?: string): Element[] {
    return DomUtils.findAll(
      (el) =>
        el.name === tag && (className === undefined || (el.attribs['class'] ?? '').split(/\s+/).includes(className)),
      this.doc.children,
    );
  }

  byId(id: string): Element | undefined {
    return DomUtils.findOne((el) => el.attribs['id'] === id, this.doc.children) ?? undefined;
  }

  /** The text a reader sees in the page's article (the prerendered content). */
  articleText(): string {
    const article = this.all('article')[0];
    return article ? DomUtils.textContent(article).replace(/\s+/g, ' ') : '';
  }

  /** The element an element sits in (undefined at the top of the document). */
  static parent(el: Element): Element | undefined {
    const parent = el.parent;
    return parent && 'attribs' in parent ? parent : undefined;
  }

  static text(el: Element): string {
    return DomUtils.textContent(el).replace(/\s+/g, ' ').trim();
  }
}
