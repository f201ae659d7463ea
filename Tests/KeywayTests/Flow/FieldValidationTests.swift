import Foundation
import Keyway
import KeywayProtocol
import Testing

@Suite("Form fields checked locally")
struct FieldValidationTests {
    private func submitForm() throws -> Action {
        try #require(try Steps.decode(Steps.form()).action(named: "submitForm"))
    }

    private let good = ["displayName": "Ada", "country": "ch", "terms": "yes"]

    @Test func validValuesBuildOneEntryPerField() throws {
        let validation = try submitForm().validate(good)
        #expect(validation.isValid)
        #expect(
            validation.values == [
                "displayName": "Ada", "country": "ch", "newsletter": "false", "terms": "true", "zip": "",
                "formVersion": "v3",
            ])
    }

    @Test func hiddenFieldsKeepTheirValue() throws {
        var values = good
        values["formVersion"] = "forged"
        #expect(try submitForm().validate(values).values["formVersion"] == "v3")
    }

    @Test func namesThatAreNotFieldsAreIgnored() throws {
        var values = good
        values["isAdmin"] = "true"
        #expect(try submitForm().validate(values).values["isAdmin"] == nil)
    }

    @Test func everyBadFieldIsNamedInFieldOrder() throws {
        let validation = try submitForm().validate([
            "displayName": String(repeating: "a", count: 21), "country": "de", "newsletter": "maybe", "zip": "12a4",
        ])
        #expect(!validation.isValid)
        #expect(validation.invalidFields.map(\.name) == ["displayName", "country", "newsletter", "terms", "zip"])
        #expect(validation.invalidFields[0].reason == "Enter at most 20 characters.")
        #expect(validation.invalidFields[1].reason == "Choose one of: Switzerland, France.")
        #expect(validation.invalidFields[2].reason == "Answer yes or no.")
        #expect(validation.invalidFields[3].reason == "This box must be ticked to continue.")
        #expect(validation.invalidFields[4].reason == "This value is not in the expected format.")
    }

    @Test func requiredFields() {
        let field = Field(name: "city", type: .text, required: true, label: "City")
        #expect(field.validate(nil)?.reason == "This field is required.")
        #expect(field.validate("   ")?.reason == "This field is required.")
        #expect(field.validate("Bern") == nil)
        let optional = Field(name: "city", type: .text, required: false, minLength: 3)
        #expect(optional.validate(nil) == nil)
        #expect(optional.validate("") == nil)
        #expect(optional.validate("ab")?.reason == "Enter at least 3 characters.")
        let prefilled = Field(name: "city", type: .text, required: true, value: "Bern")
        #expect(prefilled.validate(nil) == nil)
        #expect(prefilled.submittedValue(for: nil) == "Bern")
    }

    @Test func patternMustMatchTheWholeValue() {
        let field = Field(name: "code", type: .code, pattern: "[0-9]{6}")
        #expect(field.validate("123456") == nil)
        #expect(field.validate("1234567") != nil)
        #expect(field.validate("x123456") != nil)
        // Alternation: the whole value must be one match of the whole pattern, as on the server.
        let plan = Field(name: "plan", type: .text, pattern: "a|ab")
        #expect(plan.validate("ab") == nil)
        #expect(plan.validate("a") == nil)
        #expect(plan.validate("abc") != nil)
        #expect(plan.validate("b") != nil)
    }

    @Test(arguments: [
        ("yes", "true"), ("Y", "true"), ("true", "true"), ("on", "true"), ("1", "true"),
        ("no", "false"), ("n", "false"), ("false", "false"), ("off", "false"), ("0", "false"),
    ])
    func checkboxValues(input: String, sent: String) {
        let field = Field(name: "newsletter", type: .checkbox, required: false)
        #expect(field.submittedValue(for: input) == sent)
        #expect(field.validate(input) == nil)
    }
}
