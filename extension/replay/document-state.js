// The address and loading state of the world's document.
(function documentState() {
  return { href: location.href, ready: document.readyState };
})
