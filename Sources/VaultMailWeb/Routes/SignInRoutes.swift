import Foundation
import Hummingbird

extension WebApp {
    /// `GET /signin` says how to sign in; `POST /signin` takes the one-time token that
    /// `vaultmail open` made and answers with the session cookie (HttpOnly, SameSite=Strict).
    func addSignInRoutes(to router: Router<WebRequestContext>) {
        router.get("/signin") { request, _ -> Response in
            if let cookie = request.cookies[WebSession.cookieName]?.value,
               WebSession.verify(cookie, secret: self.secret, now: Date()) != nil {
                return Pages.redirect("/mail")
            }
            var response = Pages.signInNeeded()
            response.status = .ok
            return response
        }
        router.post("/signin") { _, context -> Response in
            let now = Date()
            let form = try context.form(SignInForm.self)
            guard let token = form.token, let nonce = SignInToken.validNonce(token, secret: self.secret, now: now) else {
                return Pages.signInNeeded(reason: "That sign-in link is not valid or has expired. Run `vaultmail open` again.")
            }
            guard await self.usedTokens.claim(nonce, now: now) else {
                return Pages.signInNeeded(reason: "That sign-in link was already used. Run `vaultmail open` again.")
            }
            SignInPage.removeStale(in: self.configuration.signInDirectory, now: now)
            let session = WebSession.new(now: now)
            var response = Pages.html(Pages.signedIn(next: Self.safeReturn(form.next)))
            response.headers[.setCookie] = "\(WebSession.cookieName)=\(session.cookieValue(secret: self.secret)); Path=/; Max-Age=\(Int(WebSession.lifetime)); HttpOnly; SameSite=Strict"
            return response
        }
    }

    /// What the sign-in page `vaultmail open` left posts: the one-time token and the page to show.
    private struct SignInForm: Decodable {
        var token: String?
        var next: String?
    }
}
