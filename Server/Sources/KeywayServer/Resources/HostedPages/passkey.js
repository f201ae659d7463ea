// Keyway hosted pages: passkey ceremonies (WebAuthn). The only script of the pages, loaded on
// pages with a form marked data-kw-passkey="create" or "get". On submit it hands the form's
// options (WebAuthn Level 3 JSON) to the browser's authenticator, writes the answer's JSON into
// the form's hidden "credential" value, and sends the form. Without it, every other method of
// the pages still works.
(function () {
  "use strict";

  function toBytes(base64url) {
    var base64 = base64url.replace(/-/g, "+").replace(/_/g, "/");
    while (base64.length % 4) { base64 += "="; }
    var binary = atob(base64);
    var bytes = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i++) { bytes[i] = binary.charCodeAt(i); }
    return bytes.buffer;
  }

  function toBase64URL(buffer) {
    var bytes = new Uint8Array(buffer);
    var binary = "";
    for (var i = 0; i < bytes.length; i++) { binary += String.fromCharCode(bytes[i]); }
    return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function descriptors(list) {
    return (list || []).map(function (item) {
      var descriptor = { type: item.type, id: toBytes(item.id) };
      if (item.transports) { descriptor.transports = item.transports; }
      return descriptor;
    });
  }

  function creationOptions(json) {
    if (PublicKeyCredential.parseCreationOptionsFromJSON) {
      return PublicKeyCredential.parseCreationOptionsFromJSON(json);
    }
    var options = Object.assign({}, json);
    options.challenge = toBytes(json.challenge);
    options.user = Object.assign({}, json.user, { id: toBytes(json.user.id) });
    options.excludeCredentials = descriptors(json.excludeCredentials);
    return options;
  }

  function requestOptions(json) {
    if (PublicKeyCredential.parseRequestOptionsFromJSON) {
      return PublicKeyCredential.parseRequestOptionsFromJSON(json);
    }
    var options = Object.assign({}, json);
    options.challenge = toBytes(json.challenge);
    options.allowCredentials = descriptors(json.allowCredentials);
    return options;
  }

  function serialized(credential) {
    var response = credential.response;
    var json = {
      id: credential.id,
      rawId: toBase64URL(credential.rawId),
      type: credential.type,
      authenticatorAttachment: credential.authenticatorAttachment || null,
      clientExtensionResults: credential.getClientExtensionResults ? credential.getClientExtensionResults() : {},
      response: { clientDataJSON: toBase64URL(response.clientDataJSON) }
    };
    if (response.attestationObject) {
      json.response.attestationObject = toBase64URL(response.attestationObject);
      json.response.transports = response.getTransports ? response.getTransports() : [];
    } else {
      json.response.authenticatorData = toBase64URL(response.authenticatorData);
      json.response.signature = toBase64URL(response.signature);
      json.response.userHandle = response.userHandle ? toBase64URL(response.userHandle) : null;
    }
    return json;
  }

  function say(form, text) {
    var note = form.querySelector(".kw-passkey-error");
    if (!note) {
      note = document.createElement("p");
      note.className = "kw-note kw-passkey-error";
      note.setAttribute("role", "alert");
      form.appendChild(note);
    }
    note.textContent = text;
  }

  function prepare(form) {
    var button = form.querySelector("button[type=submit]");
    if (!window.PublicKeyCredential || !navigator.credentials) {
      if (button) { button.disabled = true; }
      say(form, form.getAttribute("data-kw-unsupported"));
      return;
    }
    var running = false;
    var field = form.querySelector("input[name=credential]");
    var mode = form.getAttribute("data-kw-passkey");
    var json = JSON.parse(form.getAttribute("data-kw-options"));
    var autofill = null;

    function answered(credential) {
      if (!credential) { throw new Error("no credential"); }
      field.value = JSON.stringify(serialized(credential));
      form.submit();
    }

    form.addEventListener("submit", function (event) {
      if (!field || field.value) { return; }
      event.preventDefault();
      if (running) { return; }
      running = true;
      if (button) { button.disabled = true; }
      // The button replaces a pending autofill request: one ceremony at a time.
      if (autofill) { autofill.abort(); autofill = null; }
      var ceremony = mode === "create"
        ? navigator.credentials.create({ publicKey: creationOptions(json) })
        : navigator.credentials.get({ publicKey: requestOptions(json) });
      ceremony.then(answered).catch(function (error) {
        // The browser's reason (NotAllowedError, SecurityError…), for whoever inspects the page.
        form.setAttribute("data-kw-error", (error && error.name) || "Error");
        running = false;
        if (button) { button.disabled = false; }
        say(form, form.getAttribute("data-kw-failed"));
      });
    });

    // Passkeys among the identifier field's suggestions, where the browser can. The page's
    // root element says where that stands (data-kw-autofill: pending, answered, ended, unavailable).
    if (mode === "get" && form.getAttribute("data-kw-conditional") === "true") {
      var root = document.documentElement;
      root.setAttribute("data-kw-autofill", "pending");
      if (!window.AbortController || !PublicKeyCredential.isConditionalMediationAvailable) {
        root.setAttribute("data-kw-autofill", "unavailable");
        return;
      }
      PublicKeyCredential.isConditionalMediationAvailable().then(function (available) {
        if (!available || running) {
          root.setAttribute("data-kw-autofill", "unavailable");
          return;
        }
        autofill = new AbortController();
        navigator.credentials.get({ mediation: "conditional", publicKey: requestOptions(json), signal: autofill.signal })
          .then(function (credential) {
            root.setAttribute("data-kw-autofill", "answered");
            running = true;
            answered(credential);
          })
          .catch(function () {
            // Dismissed, refused, or replaced by the button.
            root.setAttribute("data-kw-autofill", "ended");
          });
      }).catch(function () { root.setAttribute("data-kw-autofill", "unavailable"); });
    }
  }

  function start() {
    var forms = document.querySelectorAll("form[data-kw-passkey]");
    for (var i = 0; i < forms.length; i++) { prepare(forms[i]); }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
