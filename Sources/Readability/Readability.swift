// Readability: Mozilla Readability's behaviour on the HTML module's DOM.
