import assert from 'node:assert/strict';
import { imageBytes, upload } from '../support/media.js';
import { BucketSuite } from '../support/bucket-suite.js';

describe('File Metafields name media of the Bucket', () => {
  let photo: string;
  let pdf: string;
  const suite = new BucketSuite('files', async () => {
    photo = (
      await upload(suite.harness.app, suite.keys, await imageBytes(10, 10, 'jpeg'), { filename: 'p.jpg' }).expect(200)
    ).body.media.name;
    pdf = (await upload(suite.harness.app, suite.keys, Buffer.from('%PDF-1.4 x'), { filename: 'doc.pdf' }).expect(200))
      .body.media.name;
    await suite.api
      .post('/object-types', {
        title: 'Pages',
        metafields: [
          { type: 'file', title: 'Attachment', key: 'attachment', value: '' },
          { type: 'file', title: 'Cover', key: 'cover', value: '', media_validation_type: 'image' },
          {
            type: 'parent',
            title: 'SEO',
            key: 'seo',
            children: [{ type: 'file', title: 'OG image', key: 'og', value: '', media_validation_type: 'image' }],
          },
          {
            type: 'repeater',
            title: 'Slides',
            key: 'slides',
            repeater_fields: [{ type: 'file', title: 'Image', key: 'image', value: '' }],
          },
        ],
      })
      .expect(200);
  });

  it('accepts names of media in the Bucket, at any level, and renders their URLs', async () => {
    const res = await suite.api
      .post('/objects', {
        title: 'Ok',
        type: 'pages',
        metadata: { attachment: pdf, cover: photo, seo: { og: photo }, slides: [{ image: pdf }, { image: '' }] },
      })
      .expect(200);
    const m = res.body.object.metadata;
    assert.deepEqual(m.cover, {
      url: `http://api.test/files/files/${photo}`,
      imgproc_url: `http://api.test/imgproc/files/${photo}`,
    });
    assert.equal(m.attachment.url, `http://api.test/files/files/${pdf}`);
    assert.equal(m.seo.og.imgproc_url, `http://api.test/imgproc/files/${photo}`);
    assert.equal(m.slides[0].image.url, `http://api.test/files/files/${pdf}`);
  });

  it('rejects unknown names and non-images where images are required, every problem in one 400', async () => {
    const res = await suite.api
      .post('/objects', {
        title: 'Bad',
        type: 'pages',
        metadata: { attachment: 'nope.png', cover: pdf, seo: { og: pdf }, slides: [{ image: 'gone.jpg' }] },
      })
      .expect(400);
    const msg: string = res.body.message;
    assert.match(
      msg,
      /invalid value for key "attachment" of type "file": no media named 'nope\.png' in bucket 'files'/,
    );
    assert.match(
      msg,
      /invalid value for key "cover" of type "file": media '.*-doc\.pdf' is application\/pdf, expected an image/,
    );
    assert.match(msg, /invalid value for key "seo\.og" of type "file": .* expected an image/);
    assert.match(msg, /invalid value for key "slides\.0\.image" of type "file": no media named 'gone\.jpg'/);
  });

  it('checks file values on patch too, and does not accept media of another Bucket', async () => {
    const otherKeys = await suite.harness.bucket('elsewhere');
    const foreign = (
      await upload(suite.harness.app, otherKeys, await imageBytes(4, 4), { filename: 'x.png' }).expect(200)
    ).body.media.name;
    const created = await suite.api.post('/objects', { title: 'P', type: 'pages' }).expect(200);
    const res = await suite.api
      .patch(`/objects/${created.body.object.id}`, { metadata: { cover: foreign } })
      .expect(400);
    assert.match(res.body.message, /key "cover" of type "file": no media named/);
    const ok = await suite.api.patch(`/objects/${created.body.object.id}`, { metadata: { cover: photo } }).expect(200);
    assert.equal(ok.body.object.metadata.cover.url, `http://api.test/files/files/${photo}`);
  });
});
