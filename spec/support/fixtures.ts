import type { Metafield } from '../../lib/types/metafield.js';

/** A type using each of the 16 Metafield types once, for Object tests. */
export const everyMetafield = [
  {
    type: 'text',
    title: 'Headline',
    key: 'headline',
    value: '',
    minlength: 2,
    maxlength: 20,
    regex: '^[A-Z]',
    regex_message: 'must start with a capital letter',
  },
  { type: 'textarea', title: 'Summary', key: 'summary', value: '' },
  { type: 'html-textarea', title: 'Body', key: 'body', value: '' },
  { type: 'markdown', title: 'Notes', key: 'notes', value: '' },
  {
    type: 'select-dropdown',
    title: 'Colour',
    key: 'colour',
    value: '',
    options: [
      { key: 'r', value: 'Red' },
      { key: 'g', value: 'Green' },
    ],
  },
  { type: 'radio-buttons', title: 'Size', key: 'size', value: '', options: [{ value: 'S' }, { value: 'M' }] },
  { type: 'check-boxes', title: 'Tags', key: 'tags', value: [], options: [{ value: 'news' }, { value: 'tech' }] },
  { type: 'switch', title: 'Featured', key: 'featured', value: false, options: 'true,false' },
  { type: 'number', title: 'Price', key: 'price', value: '' },
  { type: 'date', title: 'Launch', key: 'launch', value: '' },
  { type: 'json', title: 'Extra', key: 'extra', value: '' },
  { type: 'file', title: 'Image', key: 'image', value: '' },
  { type: 'object', title: 'Author', key: 'author', value: '', object_type: 'authors' },
  { type: 'objects', title: 'Related', key: 'related', value: '', object_type: 'authors' },
  {
    type: 'parent',
    title: 'SEO',
    key: 'seo',
    children: [
      { type: 'text', title: 'Title', key: 'title', value: '' },
      { type: 'number', title: 'Weight', key: 'weight', value: '' },
    ],
  },
  {
    type: 'repeater',
    title: 'Links',
    key: 'links',
    repeater_fields: [
      { type: 'text', title: 'Label', key: 'label', value: '' },
      { type: 'text', title: 'Href', key: 'href', value: '' },
    ],
  },
] satisfies Metafield[];
