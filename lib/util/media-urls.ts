/** Public addresses of a stored file: the original bytes and the on-the-fly image processor. */
export function mediaUrls(publicUrl: string, bucketSlug: string, name: string): { url: string; imgproc_url: string } {
  const path = `${encodeURIComponent(bucketSlug)}/${encodeURIComponent(name)}`;
  return { url: `${publicUrl}/files/${path}`, imgproc_url: `${publicUrl}/imgproc/${path}` };
}
