// How a navigation Chrome reports reads as a recorded one.

/**
 * Maps a committed navigation (chrome.webNavigation) to the transition the
 * host knows (recorder.Interaction.Transition). Back and forward look the
 * same to webNavigation; the caller tells them apart by history index.
 * @param {string} type transitionType
 * @param {string[]} qualifiers transitionQualifiers
 * @returns {string}
 */
export function transitionOf(type, qualifiers) {
  if (qualifiers.includes('forward_back')) return 'back';
  if (type === 'reload') return 'reload';
  if (qualifiers.includes('from_address_bar') || ['typed', 'auto_bookmark', 'generated', 'keyword', 'keyword_generated', 'start_page'].includes(type)) return 'typed';
  if (type === 'form_submit') return 'form';
  if (qualifiers.includes('client_redirect')) return 'script';
  if (qualifiers.includes('server_redirect')) return 'redirect';
  return 'link';
}
