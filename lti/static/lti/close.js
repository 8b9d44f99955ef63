// LTI Dynamic Registration done: tell the LMS page that opened or framed us to close it.
const target = window.opener || (window.parent !== window ? window.parent : null);
if (target) {
  target.postMessage({ subject: "org.imsglobal.lti.close" }, "*");
}
