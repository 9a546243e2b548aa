// iframe-host.html's script: the frame (?src=, ?width=, ?height=; by default embed.html's temperature
// section, 360 px wide), and every height the frame posts becomes its height and is kept in
// window.heights for the suite to read.
const params = new URLSearchParams(location.search);
const frame = document.createElement('iframe');
frame.id = 'f';
frame.title = 'attention-lab';
frame.src = params.get('src') || 'embed.html?section=temperature';
frame.style.cssText = `width:${Number(params.get('width')) || 360}px;height:${Number(params.get('height')) || 300}px;border:0;display:block`;
window.heights = [];
window.addEventListener('message', (e) => {
  if (!e.data || e.data.type !== 'attention-lab:height') return;
  window.heights.push(e.data.height);
  frame.style.height = `${e.data.height}px`;
});
document.body.append(frame);
