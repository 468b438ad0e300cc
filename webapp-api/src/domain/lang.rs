/// The two languages FragBox speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    Ru,
    En,
}

impl Lang {
    /// Telegram language codes that get Russian; everything else gets English.
    pub fn from_telegram_code(code: Option<&str>) -> Lang {
        let Some(code) = code else { return Lang::Ru };
        let base = code.split(['-', '_']).next().unwrap_or("").to_ascii_lowercase();
        match base.as_str() {
            "ru" | "uk" | "be" | "by" | "kk" | "kz" | "uz" | "tg" | "tj" => Lang::Ru,
            _ => Lang::En,
        }
    }

    pub fn parse(s: &str) -> Option<Lang> {
        match s {
            "ru" => Some(Lang::Ru),
            "en" => Some(Lang::En),
            _ => None,
        }
    }

    /// A stored choice wins; else the Telegram language code.
    pub fn resolve(chosen: Option<&str>, telegram_code: Option<&str>) -> Lang {
        chosen.and_then(Lang::parse).unwrap_or_else(|| Lang::from_telegram_code(telegram_code))
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Lang::Ru => "ru",
            Lang::En => "en",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cis_codes_speak_russian_and_the_rest_english() {
        for c in ["ru", "uk", "be", "by", "kk", "kz", "uz", "tg", "tj", "ru-RU"] {
            assert_eq!(Lang::from_telegram_code(Some(c)), Lang::Ru, "{c}");
        }
        for c in ["en", "de", "pt-br", "es"] {
            assert_eq!(Lang::from_telegram_code(Some(c)), Lang::En, "{c}");
        }
        assert_eq!(Lang::from_telegram_code(None), Lang::Ru);
    }

    #[test]
    fn a_stored_choice_wins_over_the_telegram_code() {
        assert_eq!(Lang::resolve(Some("en"), Some("ru")), Lang::En);
        assert_eq!(Lang::resolve(None, Some("de")), Lang::En);
    }
}
