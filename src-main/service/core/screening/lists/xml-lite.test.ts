import { describe, expect, it } from 'vitest';
import { child, parseXml, textOf, XML_LIMITS, XmlError } from './xml-lite';

describe('parseXml', () => {
  it('reads elements, attributes, entities, CDATA and namespaces', () => {
    const root = parseXml(
      '<?xml version="1.0"?><!-- c --><ns:a xmlns:ns="u" x="1 &amp; 2"><b>&#8216;Q&#x2019; &lt;&gt;</b><c/><d><![CDATA[<raw>]]></d></ns:a>',
    );
    expect(root.name).toBe('a');
    expect(root.attrs.x).toBe('1 & 2');
    expect(textOf(root, 'b')).toBe('‘Q’ <>');
    expect(child(root, 'c')?.children).toEqual([]);
    expect(textOf(root, 'd')).toBe('<raw>');
  });

  it('hands each element to take as it ends, whole, and leaves out of the tree the ones it took', () => {
    const seen: string[] = [];
    const root = parseXml('<list><head v="1"/><items><item id="a"><n>A</n></item><item id="b"/><other/></items></list>', undefined, (el, parent, depth) => {
      seen.push(`${el.name}@${depth}<${parent.name}`);
      if (el.name !== 'item') return false;
      expect(el.attrs.id === 'b' || textOf(el, 'n') === 'A').toBe(true);
      return true;
    });
    expect(seen).toEqual(['head@2<list', 'n@4<item', 'item@3<items', 'item@3<items', 'other@3<items', 'items@2<list', 'list@1<#document']);
    expect(child(root, 'items')?.children.map((c) => c.name)).toEqual(['other']);
    expect(child(root, 'head')?.attrs.v).toBe('1');
  });

  it('does not expand custom entities', () => {
    const root = parseXml('<!DOCTYPE a [<!ENTITY e "boom">]><a>&e;</a>');
    expect(root.text).toBe('&e;');
  });

  it('refuses tags that do not nest', () => {
    expect(() => parseXml('<a><b></a>')).toThrow(XmlError);
    expect(() => parseXml('<a>')).toThrow(XmlError);
    expect(() => parseXml('not xml')).toThrow(XmlError);
  });

  it('bounds nesting and the number of elements, and never quotes the file in its errors', () => {
    expect(() => parseXml(`${'<a>'.repeat(XML_LIMITS.depth + 1)}${'</a>'.repeat(XML_LIMITS.depth + 1)}`)).toThrow(`nested more than ${XML_LIMITS.depth} deep`);
    expect(parseXml(`${'<a>'.repeat(XML_LIMITS.depth)}${'</a>'.repeat(XML_LIMITS.depth)}`).name).toBe('a');
    const limits = { depth: 64, elements: 3 };
    expect(() => parseXml('<a><b/><c/><d/></a>', limits)).toThrow('more than 3 elements');
    expect(parseXml('<a><b/><c/></a>', limits).children).toHaveLength(2);
    const canary = `Secret${'x'.repeat(100)}`;
    for (const xml of [`<a></${canary}>`, `<${canary}>`, `<a><${canary}></a>`]) {
      expect(() => parseXml(xml)).toThrow(XmlError);
      expect(() => parseXml(xml)).not.toThrow('Secret');
    }
  });

  it('reads a file\'s bytes a piece at a time as it reads their text whole, wherever the pieces end', () => {
    // Multi-byte letters, markup with < inside (a comment, CDATA, a quoted attribute), entities,
    // a DOCTYPE's internal subset, text runs and DOS's end-of-file character at the end.
    const xml = '\ufeff<?xml version="1.0"?><!DOCTYPE l [<!ENTITY e "x">]><l d="a>b"><!-- 1 < 2 -->'
      + '<p n="أحمد">ALI &amp; SONS<q><![CDATA[<x> ]] ]]></q>Ŝergej Ивано́в</p><p/>\n  <p>宋 &#x2019;</p></l>\u001a';
    const whole = parseXml(xml.slice(1, -1));
    const bytes = new TextEncoder().encode(xml);
    for (let size = 1; size <= bytes.length; size++) {
      const seen: string[] = [];
      const root = parseXml(bytes, undefined, (el) => {
        seen.push(`${el.name}:${el.text}`);
        return false;
      }, size);
      expect(root, `pieces of ${size} bytes`).toEqual(whole);
      expect(seen).toContain('p:ALI & SONSŜergej Ивано́в');
    }
    expect(() => parseXml(new TextEncoder().encode('<a><b></a>'), undefined, undefined, 3)).toThrow(XmlError);
    expect(() => parseXml(new TextEncoder().encode('<a><!-- never closed </a>'), undefined, undefined, 4)).toThrow(XmlError);
    expect(() => parseXml(new Uint8Array(0))).toThrow('no root element');
  });
});
