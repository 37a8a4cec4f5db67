/// The shipped store (`Rules/Promotions.plist` and `Rules/Products.json`), built in so that
/// `checkout` works from any directory. `ShippedStoreTests` keeps these copies identical to the
/// files: after editing them, paste their contents here (a literal's last line break before the
/// closing delimiter does not count, hence the empty line).
public enum ShippedStore {
    public static let promotionsName = "Rules/Promotions.plist"
    public static let catalogName = "Rules/Products.json"

    public static let promotionsPlist = #"""
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <array>
        	<dict>
        		<key>code</key>
        		<string>VOUCHER</string>
        		<key>type</key>
        		<string>combo</string>
        		<key>name</key>
        		<string>VOUCHER 2x1</string>
        		<key>quantity</key>
        		<integer>2</integer>
        		<key>paid</key>
        		<integer>1</integer>
        	</dict>
        	<dict>
        		<key>code</key>
        		<string>TSHIRT</string>
        		<key>type</key>
        		<string>bulk</string>
        		<key>name</key>
        		<string>TSHIRT 3+</string>
        		<key>quantity</key>
        		<integer>3</integer>
        		<key>price</key>
        		<real>19</real>
        	</dict>
        </array>
        </plist>

        """#

    public static let productsJSON = #"""
        {
          "currency": "EUR",
          "products": [
            {"code": "VOUCHER", "name": "Cabify Voucher", "price": 5},
            {"code": "TSHIRT", "name": "Cabify T-Shirt", "price": 20},
            {"code": "MUG", "name": "Cabify Coffee Mug", "price": 7.5}
          ]
        }

        """#
}
